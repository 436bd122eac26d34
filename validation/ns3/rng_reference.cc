// Prints the first uniform draws of ns-3.44's random streams as JSON, the golden data of
// ccsim's MRG32k3a (crates/ccsim-core/src/mrg32k3a.rs).
//
// Regenerate (after `bash validation/ns3/setup.sh`, which builds this program):
//   validation/ns3/build/rng_reference > validation/golden/ns3/rng_mrg32k3a.json
//
// Each entry is what a `UniformRandomVariable` that was given `SetStream(stream)` returns
// from `GetValue()` (= RandU01) in the run with RngSeed = seed and RngRun = run; stream 4 is
// the one every ns3::TcpBbr uses by default (its `Stream` attribute).
#include "ns3/core-module.h"

#include <cstdio>

using namespace ns3;

int
main()
{
    const uint32_t seeds[] = {1, 3};
    const uint64_t runs[] = {1, 2, 7};
    const int64_t streams[] = {0, 4, 9};
    std::printf("{\n  \"generator\": \"ns-3.44 UniformRandomVariable(SetStream) GetValue()\",\n");
    std::printf("  \"cases\": [\n");
    bool first = true;
    for (uint32_t seed : seeds)
    {
        for (uint64_t run : runs)
        {
            for (int64_t stream : streams)
            {
                RngSeedManager::SetSeed(seed);
                RngSeedManager::SetRun(run);
                Ptr<UniformRandomVariable> uv = CreateObject<UniformRandomVariable>();
                uv->SetStream(stream);
                std::printf("%s    {\"seed\": %u, \"run\": %lu, \"stream\": %ld, \"u\": [",
                            first ? "" : ",\n",
                            seed,
                            static_cast<unsigned long>(run),
                            static_cast<long>(stream));
                for (int i = 0; i < 8; ++i)
                {
                    std::printf("%s%.17g", i ? ", " : "", uv->GetValue());
                }
                std::printf("]}");
                first = false;
            }
        }
    }
    std::printf("\n  ]\n}\n");
    return 0;
}
