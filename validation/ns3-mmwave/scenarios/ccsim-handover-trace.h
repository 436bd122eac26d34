/* Helpers of ccsim-handover-trace.cc (issue 15): the reader of LteRlcAm's private state
 * variables and the CSV output files. setup.sh copies it into the tree's scratch/ with the
 * programs (waf builds only the .cc files there). Include it inside the program's anonymous
 * namespace, after the ns-3 includes and `using namespace ns3; using namespace mmwave;`.
 */
#pragma once

// ---- Private LteRlcAm state, read without modifying the tree -----------------------------------

/** What the poll reads from one LteRlcAm's private members. */
struct RlcPrivate
{
  uint16_t rnti;
  uint16_t vtA, vtS, vtMs, vrR, vrH, vrMs;
  uint32_t rxonSns; // SNs held in the reception buffer
  uint32_t rxonIncomplete; // of which not all byte segments received
  int32_t vrRSegs; // byte segments held for SN VR(R); -1: VR(R) not in the buffer
  int32_t segPendingBytes; // re-segmentation: bytes of SN VT(A) still to send; -1: none
  bool segLastSent; // re-segmentation: last segment of SN VT(A) sent, waiting
  int32_t incSn; // the lowest SN held incomplete in the reception buffer; -1: none
  int32_t incSegs; // its byte segments
  int32_t incFrom, incTo; // the byte range they cover (first offset, last segment's end)
};

typedef RlcPrivate (*RlcReadFn) (LteRlcAm &);
struct RlcReadTag
{
};
RlcReadFn GetRlcReader (RlcReadTag);

/** The reception and re-segmentation buffers have private element types: the reader is a
 * static member of a template whose explicit instantiation names the members, so no private
 * name is spelt out anywhere else. */
template <typename Rx, Rx RxonBuffer, typename Seg, Seg SegBuffer, typename Sn, Sn VtA, Sn VtS,
          Sn VtMs, Sn VrR, Sn VrH, Sn VrMs, typename Rnti, Rnti RntiMember>
struct RlcReader
{
  static RlcPrivate
  Read (LteRlcAm &am)
  {
    RlcPrivate s;
    s.rnti = am.*RntiMember;
    s.vtA = (am.*VtA).GetValue ();
    s.vtS = (am.*VtS).GetValue ();
    s.vtMs = (am.*VtMs).GetValue ();
    s.vrR = (am.*VrR).GetValue ();
    s.vrH = (am.*VrH).GetValue ();
    s.vrMs = (am.*VrMs).GetValue ();
    s.rxonSns = (am.*RxonBuffer).size ();
    s.rxonIncomplete = 0;
    s.vrRSegs = -1;
    s.incSn = s.incSegs = s.incFrom = s.incTo = -1;
    for (const auto &kv : am.*RxonBuffer)
      {
        if (kv.first == s.vrR)
          {
            s.vrRSegs = static_cast<int32_t> (kv.second.m_byteSegments.size ());
          }
        if (kv.second.m_pduComplete)
          {
            continue;
          }
        s.rxonIncomplete++;
        // The map is keyed by the raw 10-bit SN: the lowest in window order is the one
        // closest above VR(R) (mod 1024).
        uint16_t dist = (kv.first - s.vrR) & 1023;
        if (s.incSn < 0 || dist < ((s.incSn - s.vrR) & 1023))
          {
            s.incSn = kv.first;
            s.incSegs = static_cast<int32_t> (kv.second.m_byteSegments.size ());
            LteRlcAmHeader first, last;
            kv.second.m_byteSegments.front ()->PeekHeader (first);
            kv.second.m_byteSegments.back ()->PeekHeader (last);
            s.incFrom = first.GetSegmentOffset ();
            s.incTo = last.GetLastOffset ();
          }
      }
    Ptr<Packet> pending = (am.*SegBuffer).at (s.vtA).m_pdu;
    s.segPendingBytes = pending ? static_cast<int32_t> (pending->GetSize ()) : -1;
    s.segLastSent = (am.*SegBuffer).at (s.vtA).m_lastSegSent;
    return s;
  }
  friend RlcReadFn
  GetRlcReader (RlcReadTag)
  {
    return &Read;
  }
};

template struct RlcReader<decltype (&LteRlcAm::m_rxonBuffer), &LteRlcAm::m_rxonBuffer,
                          decltype (&LteRlcAm::m_retxSegBuffer), &LteRlcAm::m_retxSegBuffer,
                          SequenceNumber10 LteRlcAm::*, &LteRlcAm::m_vtA, &LteRlcAm::m_vtS,
                          &LteRlcAm::m_vtMs, &LteRlcAm::m_vrR, &LteRlcAm::m_vrH,
                          &LteRlcAm::m_vrMs, uint16_t LteRlc::*, &LteRlcAm::m_rnti>;

RlcPrivate
ReadRlcPrivate (LteRlcAm &am)
{
  return GetRlcReader (RlcReadTag ()) (am);
}

// ---- Output ------------------------------------------------------------------------------------

std::map<std::string, std::unique_ptr<std::ofstream>> g_files;
std::string g_out;

std::ofstream &
File (const std::string &name, const char *header)
{
  auto it = g_files.find (name);
  if (it == g_files.end ())
    {
      auto f = std::unique_ptr<std::ofstream> (new std::ofstream (g_out + "." + name + ".csv"));
      *f << header << '\n';
      it = g_files.emplace (name, std::move (f)).first;
    }
  return *it->second;
}

int64_t
NowUs ()
{
  return Simulator::Now ().GetMicroSeconds ();
}
