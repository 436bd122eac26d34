"""The Linux-kernel reference harness behind run_reference.py, one job per module.

config: cases, namespaces, addresses, priorities; shell: running commands in namespaces;
topology: namespaces, veths, TUN pair, routes; qdisc: the htb + pfifo bottleneck;
delayline: the TUN delay line process; measure: ping, nstat, tc and link counters, per-flow
summaries; run: one repetition; golden: the golden file; tables: markdown tables of the
golden files; cli: the command line.
"""
