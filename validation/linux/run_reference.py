#!/usr/bin/env python3
"""Linux-kernel reference runs for ccsim's `linux` TCP profile (issue 17, part 4).

Runs the real kernel's TCP through a dumbbell built from network namespaces and writes
validation/golden/linux/<case>_<cca>.json. Needs root, /dev/net/tun, `ip`, `tc`, `ping`,
`nstat`, and the delay line built by setup.sh. Every run is real time; run one at a time.

    bash validation/linux/setup.sh
    sudo python3 validation/linux/run_reference.py --cases A,B,C --ccas reno,cubic,bbr --reps 5
    python3 validation/linux/run_reference.py --table      # markdown table of the golden files
    python3 validation/linux/run_reference.py --ping-test  # delay-line accuracy (ping, idle)

Topology (README.md explains why):

    S ──veth── R1 ══ tuna ⇄ delayline ⇄ tunb ══ R2 ──veth (htb + pfifo)── D

Addresses are private and exist only inside the four namespaces.
"""

from __future__ import annotations

from kernel_harness.cli import main

if __name__ == "__main__":
    main(__doc__)
