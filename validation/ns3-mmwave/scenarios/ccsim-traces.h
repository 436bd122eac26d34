/* The per-millisecond trace code shared by ccsim-seed000.cc and ccsim-seed002.cc: one Bin of
 * counters per millisecond (goodput, RTT, cwnd, TBs, SINR, MCS, RLC AM buffers, recoveries),
 * the trace sinks that fill it, and the CSV writer. setup.sh copies it into the tree's scratch/
 * with the programs (waf builds only the .cc files there).
 *
 * Include it after the program's ns-3 includes and `using namespace ns3; using namespace mmwave;`.
 * Moved out of the two programs unchanged; the seed 002 golden files' program_sha256 is that
 * of ccsim-seed002.cc before the move (git history).
 */
#pragma once

namespace {

/** Everything measured in one millisecond. */
struct Bin
{
  uint64_t rxBytes = 0;
  uint64_t rttSumUs = 0;
  uint32_t rttN = 0;
  uint32_t cwnd = 0; // last value seen, 0 = unchanged in this ms
  uint32_t tbN = 0;
  uint64_t tbBytes = 0;
  uint32_t tbCorrupt = 0;
  uint32_t tbRetx = 0;
  double sinrSumDb = 0;
  double sinrMinDb = std::numeric_limits<double>::infinity ();
  double sinrMaxDb = -std::numeric_limits<double>::infinity ();
  uint32_t mcsSum = 0;
  uint32_t rlcTxon = 0;
  uint32_t rlcRetx = 0;
  uint32_t rlcTxed = 0;
  uint32_t recoveries = 0;
  uint32_t rtos = 0;
};

std::vector<Bin> g_bins;
uint32_t g_enbNodeId = 0;
std::vector<Ptr<LteRlcAm>> g_rlcs;

Bin &
Now ()
{
  size_t i = static_cast<size_t> (Simulator::Now ().GetMicroSeconds () / 1000);
  if (i >= g_bins.size ())
    {
      g_bins.resize (i + 1);
    }
  return g_bins[i];
}

void
OnSinkRx (Ptr<const Packet> p, const Address &)
{
  Now ().rxBytes += p->GetSize ();
}

void
OnRtt (Time, Time rtt)
{
  Bin &b = Now ();
  b.rttSumUs += rtt.GetMicroSeconds ();
  b.rttN++;
}

void
OnCwnd (uint32_t, uint32_t cwnd)
{
  Now ().cwnd = cwnd;
}

void
OnCongState (TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t to)
{
  if (to == TcpSocketState::CA_RECOVERY)
    {
      Now ().recoveries++;
    }
  else if (to == TcpSocketState::CA_LOSS)
    {
      Now ().rtos++;
    }
}

void
AttachSenderTraces (Ptr<BulkSendApplication> bulk)
{
  Ptr<Socket> sock = bulk->GetSocket ();
  NS_ABORT_MSG_UNLESS (sock, "the bulk sender has no socket at 20.1 ms");
  sock->TraceConnectWithoutContext ("RTT", MakeCallback (&OnRtt));
  sock->TraceConnectWithoutContext ("CongestionWindow", MakeCallback (&OnCwnd));
  sock->TraceConnectWithoutContext ("CongState", MakeCallback (&OnCongState));
}

void
OnUeTb (RxPacketTraceParams p)
{
  Bin &b = Now ();
  double sinrDb = 10 * std::log10 (p.m_sinr);
  b.tbN++;
  b.tbBytes += p.m_corrupt ? 0 : p.m_tbSize; // decoded bytes: the radio's delivered capacity
  b.tbCorrupt += p.m_corrupt ? 1 : 0;
  b.tbRetx += p.m_rv > 0 ? 1 : 0;
  b.sinrSumDb += sinrDb;
  b.sinrMinDb = std::min (b.sinrMinDb, sinrDb);
  b.sinrMaxDb = std::max (b.sinrMaxDb, sinrDb);
  b.mcsSum += p.m_mcs;
}

/** The gNB's RLC AM entities are created when the bearer is set up: look them up until found,
 * then read their buffer sizes every millisecond. */
void
PollRlc ()
{
  if (g_rlcs.empty ())
    {
      std::ostringstream path;
      path << "/NodeList/" << g_enbNodeId
           << "/DeviceList/*/LteEnbRrc/UeMap/*/DataRadioBearerMap/*/LteRlc";
      Config::MatchContainer m = Config::LookupMatches (path.str ());
      for (size_t i = 0; i < m.GetN (); i++)
        {
          Ptr<LteRlcAm> am = DynamicCast<LteRlcAm> (m.Get (i));
          if (am)
            {
              g_rlcs.push_back (am);
            }
        }
    }
  Bin &b = Now ();
  for (Ptr<LteRlcAm> am : g_rlcs)
    {
      b.rlcTxon += am->GetTxBufferSize ();
      b.rlcRetx += am->GetRetxBufferSize ();
      b.rlcTxed += am->GetTxedBufferSize ();
    }
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
}

void
WriteCsv (const std::string &out)
{
  std::ofstream f (out);
  f << "t_ms,rx_bytes,rtt_sum_us,rtt_n,cwnd_bytes,tb_n,tb_bytes,tb_corrupt,tb_retx,"
       "sinr_sum_db,sinr_min_db,sinr_max_db,mcs_sum,rlc_txon_bytes,rlc_retx_bytes,"
       "rlc_txed_bytes,recoveries,rtos\n";
  f.setf (std::ios::fixed);
  f.precision (2);
  for (size_t i = 0; i < g_bins.size (); i++)
    {
      const Bin &b = g_bins[i];
      f << i << ',' << b.rxBytes << ',' << b.rttSumUs << ',' << b.rttN << ',' << b.cwnd << ','
        << b.tbN << ',' << b.tbBytes << ',' << b.tbCorrupt << ',' << b.tbRetx << ','
        << b.sinrSumDb << ',';
      if (b.tbN > 0)
        {
          f << b.sinrMinDb << ',' << b.sinrMaxDb;
        }
      else
        {
          f << ',';
        }
      f << ',' << b.mcsSum << ',' << b.rlcTxon << ',' << b.rlcRetx << ',' << b.rlcTxed << ','
        << b.recoveries << ',' << b.rtos << '\n';
    }
}

} // namespace
