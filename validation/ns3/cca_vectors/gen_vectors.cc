// gen_vectors: drive ns-3.44 TcpCongestionOps objects directly (as ns-3's own
// src/internet/test/tcp-*-test.cc do) through event scripts and print ns-3's cwnd, ssthresh
// and congestion state after every step. The event semantics are those of
// shared/reference/cca-replay-format.md (always cwnd-limited sender, classic recovery,
// PktsAcked with the smoothed RTT); ccsim's crates/ccsim-cca/src/replay.rs implements the
// same rules, so the two must agree to the byte.
//
// Input (stdin), one vector after another:
//   V <TypeId without ns3::> <mss> <init_cwnd_segs> <init_ssthresh>
//   S <t_ns> <event> <segs_acked> <rtt_ns>        (one line per step; event = init|ack|fullack|dupack|rto)
//   E
// Output (stdout), per vector: "V" then one "R <segs_acked> <cwnd> <ssthresh> <state>" per step,
// then "E". gen_vectors.py converts the JSON interchange format to and from these lines.
//
// Each step is scheduled from the previous one (Simulator::Schedule), so an algorithm's own
// events at the same instant (Westwood+ EstimateBW) run before the step, and every vector
// starts its clock at 0 (Simulator::Destroy in between).

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Step
{
    int64_t tNs;
    std::string event;
    uint32_t segs;
    int64_t rttNs;
};

struct Result
{
    uint32_t segs;
    uint32_t cwnd;
    uint32_t ssthresh;
    int state;
};

class Replay
{
  public:
    Replay(const std::string& typeId, uint32_t mss, uint32_t iw, uint32_t ssthresh)
    {
        ObjectFactory factory;
        factory.SetTypeId("ns3::" + typeId);
        m_cca = DynamicCast<TcpCongestionOps>(factory.Create());
        NS_ABORT_MSG_IF(!m_cca, "not a TcpCongestionOps: " << typeId);
        m_tcb = CreateObject<TcpSocketState>();
        m_tcb->m_segmentSize = mss;
        m_tcb->m_initialCWnd = iw;
        m_tcb->m_initialSsThresh = ssthresh;
        m_tcb->m_cWnd = iw * mss;
        m_tcb->m_ssThresh = ssthresh;
        m_tcb->m_isCwndLimited = true;
    }

    void Run(const std::vector<Step>& steps, std::vector<Result>* out)
    {
        m_steps = &steps;
        m_out = out;
        if (!steps.empty())
        {
            Simulator::Schedule(NanoSeconds(steps[0].tNs), &Replay::DoStep, this, 0);
        }
        Simulator::Run();
        Simulator::Destroy();
    }

  private:
    void SetState(TcpSocketState::TcpCongState_t s)
    {
        m_cca->CongestionStateSet(m_tcb, s);
        m_tcb->m_congState = s;
    }

    void AfterStep()
    {
        SequenceNumber32 edge = m_tcb->m_lastAckedSeq + m_tcb->m_cWnd.Get();
        if (edge > m_tcb->m_nextTxSequence.Get())
        {
            m_tcb->m_nextTxSequence = edge;
        }
        m_tcb->m_highTxMark = m_tcb->m_nextTxSequence.Get();
        m_tcb->m_bytesInFlight = m_tcb->m_cWnd.Get();
        m_tcb->m_isCwndLimited = true;
    }

    void RttSample(Time rtt)
    {
        m_tcb->m_lastRtt = rtt;
        m_tcb->m_srtt = rtt;
        m_tcb->m_minRtt = std::min(m_tcb->m_minRtt, rtt);
    }

    void FullAckInRecovery(uint32_t segs, Time rtt)
    {
        m_cca->PktsAcked(m_tcb, segs, rtt);
        m_cca->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_COMPLETE_CWR);
        SetState(TcpSocketState::CA_OPEN);
        m_dupAcks = 0;
        m_tcb->m_cWnd = m_tcb->m_ssThresh.Get();
        m_cca->IncreaseWindow(m_tcb, segs);
    }

    void Ack(uint32_t segs, Time rtt)
    {
        RttSample(rtt);
        m_tcb->m_lastAckedSeq += segs * m_tcb->m_segmentSize;
        switch (m_tcb->m_congState.Get())
        {
        case TcpSocketState::CA_OPEN:
        case TcpSocketState::CA_CWR:
            m_cca->PktsAcked(m_tcb, segs, rtt);
            m_cca->IncreaseWindow(m_tcb, segs);
            break;
        case TcpSocketState::CA_DISORDER:
            if (segs >= m_dupAcks)
            {
                m_cca->PktsAcked(m_tcb, segs - m_dupAcks, rtt);
            }
            SetState(TcpSocketState::CA_OPEN);
            m_dupAcks = 0;
            m_cca->IncreaseWindow(m_tcb, segs);
            break;
        case TcpSocketState::CA_RECOVERY:
            if (m_tcb->m_lastAckedSeq < m_recover)
            {
                m_cca->PktsAcked(m_tcb, 1, rtt);
            }
            else
            {
                FullAckInRecovery(segs, rtt);
            }
            break;
        case TcpSocketState::CA_LOSS:
            m_cca->PktsAcked(m_tcb, segs, rtt);
            if (m_tcb->m_lastAckedSeq >= m_recover)
            {
                SetState(TcpSocketState::CA_OPEN);
                m_dupAcks = 0;
            }
            m_cca->IncreaseWindow(m_tcb, segs);
            break;
        default:
            break;
        }
    }

    uint32_t FullAck(Time rtt)
    {
        uint32_t mss = m_tcb->m_segmentSize;
        uint32_t gap = m_recover > m_tcb->m_lastAckedSeq ? (m_recover - m_tcb->m_lastAckedSeq) : 0;
        uint32_t segs = std::max<uint32_t>(1, (gap + mss - 1) / mss);
        if (m_tcb->m_congState != TcpSocketState::CA_RECOVERY)
        {
            Ack(segs, rtt);
            return segs;
        }
        RttSample(rtt);
        m_tcb->m_lastAckedSeq += segs * mss;
        FullAckInRecovery(segs, rtt);
        return segs;
    }

    void DupAck()
    {
        Time srtt = m_tcb->m_srtt.Get();
        switch (m_tcb->m_congState.Get())
        {
        case TcpSocketState::CA_OPEN:
        case TcpSocketState::CA_CWR:
            SetState(TcpSocketState::CA_DISORDER);
            m_dupAcks = 1;
            break;
        case TcpSocketState::CA_DISORDER:
            if (++m_dupAcks == 3)
            {
                SetState(TcpSocketState::CA_RECOVERY);
                m_recover = m_tcb->m_highTxMark.Get();
                m_tcb->m_ssThresh = m_cca->GetSsThresh(m_tcb, m_tcb->m_cWnd.Get());
                m_tcb->m_cWnd = m_tcb->m_ssThresh.Get();
            }
            break;
        default:
            break;
        }
        if (m_tcb->m_congState != TcpSocketState::CA_LOSS)
        {
            m_cca->PktsAcked(m_tcb, 1, srtt);
        }
    }

    void Rto()
    {
        m_recover = m_tcb->m_highTxMark.Get();
        if (m_tcb->m_congState != TcpSocketState::CA_LOSS)
        {
            m_tcb->m_ssThresh = m_cca->GetSsThresh(m_tcb, m_tcb->m_cWnd.Get());
        }
        m_cca->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_LOSS);
        SetState(TcpSocketState::CA_LOSS);
        m_dupAcks = 0;
        m_tcb->m_cWnd = m_tcb->m_segmentSize;
    }

    void DoStep(size_t i)
    {
        const Step& s = (*m_steps)[i];
        Time rtt = NanoSeconds(s.rttNs);
        uint32_t segs = s.segs;
        if (s.event == "init")
        {
            AfterStep();
            m_cca->Init(m_tcb);
        }
        else if (s.event == "ack")
        {
            Ack(s.segs, rtt);
        }
        else if (s.event == "fullack")
        {
            segs = FullAck(rtt);
        }
        else if (s.event == "dupack")
        {
            DupAck();
        }
        else if (s.event == "rto")
        {
            Rto();
        }
        else
        {
            NS_ABORT_MSG("unknown event " << s.event);
        }
        AfterStep();
        m_out->push_back(
            {segs, m_tcb->m_cWnd.Get(), m_tcb->m_ssThresh.Get(), int(m_tcb->m_congState.Get())});
        if (i + 1 < m_steps->size())
        {
            Time next = NanoSeconds((*m_steps)[i + 1].tNs) - Simulator::Now();
            Simulator::Schedule(next, &Replay::DoStep, this, i + 1);
        }
    }

    Ptr<TcpCongestionOps> m_cca;
    Ptr<TcpSocketState> m_tcb;
    const std::vector<Step>* m_steps{nullptr};
    std::vector<Result>* m_out{nullptr};
    uint32_t m_dupAcks{0};
    SequenceNumber32 m_recover{0};
};

} // namespace

int
main()
{
    std::string line;
    std::string typeId;
    uint32_t mss = 0;
    uint32_t iw = 0;
    uint32_t ssthresh = 0;
    std::vector<Step> steps;
    while (std::getline(std::cin, line))
    {
        std::istringstream in(line);
        std::string tag;
        in >> tag;
        if (tag == "V")
        {
            in >> typeId >> mss >> iw >> ssthresh;
            steps.clear();
        }
        else if (tag == "S")
        {
            Step s;
            in >> s.tNs >> s.event >> s.segs >> s.rttNs;
            steps.push_back(s);
        }
        else if (tag == "E")
        {
            std::vector<Result> out;
            Replay replay(typeId, mss, iw, ssthresh);
            replay.Run(steps, &out);
            std::cout << "V\n";
            for (const auto& r : out)
            {
                std::cout << "R " << r.segs << ' ' << r.cwnd << ' ' << r.ssthresh << ' ' << r.state
                          << '\n';
            }
            std::cout << "E\n";
        }
    }
    return 0;
}
