// delayline: a user-space propagation delay between two TUN devices.
//
// The kernel on this machine has no netem and no fq/etf qdisc, so a fixed
// one-way delay cannot be built from tc alone. This program attaches to two
// TUN devices that live in two different network namespaces (tun "a" in the
// namespace it is started in, tun "b" in the namespace given by --netns-b),
// and forwards every IP packet read from one device to the other after
// exactly --delay-us microseconds (measured from the moment it read the
// packet). One thread per direction; each keeps a FIFO byte ring of packets
// with their release times, so the delay never reorders packets.
//
// Nothing is dropped on purpose: if the ring is full (it holds far more
// than delay x 10 Gb/s), the thread stops reading and the kernel's TUN
// queue fills instead (counted as "ring_full_waits").
//
// On SIGTERM/SIGINT it writes per-direction statistics as JSON to --stats:
// packets, bytes, and the release lateness (actual write time minus the due
// time) as a histogram summary, which is the delay line's own error.
//
// Build: cc -O2 -pthread -o delayline delayline.c
// Usage: delayline --tun-a tunA --tun-b tunB --netns-b /run/netns/X
//                  --delay-us 20000 --stats out.json [--rt-priority 10] [--vnet-hdr 1]
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define RING_BYTES (64u << 20) // per direction
#define MAX_PKT (65536u + 64u) // a GSO packet plus its virtio-net header
#define HDR_BYTES 16u // u64 due_ns, u32 len, u32 pad
#define WRAP_LEN 0xffffffffu
#define MAX_READ_BATCH 64
// Lateness histogram: 1 us buckets up to 100 ms.
#define HIST_BUCKETS 100000

static volatile sig_atomic_t stop_flag = 0;

struct direction {
    const char *name;
    int in_fd, out_fd;
    uint64_t delay_ns;
    int rt_priority;
    uint8_t *ring;
    uint64_t head, tail; // byte offsets (monotonic counters)
    uint64_t packets, bytes, write_errors, ring_full_waits, max_batch, batched_reads;
    uint64_t *hist; // lateness in us
    uint64_t late_over_hist;
    uint64_t late_max_ns;
    uint64_t max_queued_bytes;
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// With vnet_hdr, the TUN devices exchange GSO packets (up to 64 KB, one TSO burst of the
// sender) with a virtio-net header in front; the delay line passes both through unchanged.
// The kernel segments them again at the next device without GSO (see README.md).
static int tun_attach(const char *name, int vnet_hdr) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        perror("open /dev/net/tun");
        exit(2);
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI | (vnet_hdr ? IFF_VNET_HDR : 0);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        fprintf(stderr, "TUNSETIFF %s: %s\n", name, strerror(errno));
        exit(2);
    }
    if (vnet_hdr &&
        ioctl(fd, TUNSETOFFLOAD, (unsigned long)(TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6)) < 0) {
        fprintf(stderr, "TUNSETOFFLOAD %s: %s\n", name, strerror(errno));
        exit(2);
    }
    return fd;
}

static uint64_t ring_used(const struct direction *d) { return d->head - d->tail; }

// Room for one more maximal packet at the head (possibly after a wrap marker)?
static int ring_has_room(const struct direction *d) {
    uint64_t pos = d->head % RING_BYTES;
    uint64_t need = HDR_BYTES + MAX_PKT;
    uint64_t to_end = RING_BYTES - pos;
    if (to_end < need) need = to_end + HDR_BYTES + MAX_PKT; // wrap marker + packet at 0
    return ring_used(d) + need <= RING_BYTES;
}

static void record_lateness(struct direction *d, uint64_t late_ns) {
    uint64_t us = late_ns / 1000;
    if (us < HIST_BUCKETS)
        d->hist[us]++;
    else
        d->late_over_hist++;
    if (late_ns > d->late_max_ns) d->late_max_ns = late_ns;
}

// Write every packet whose release time has come; return the next due time (0 if empty).
static uint64_t release_due(struct direction *d) {
    for (;;) {
        if (d->head == d->tail) return 0;
        uint64_t pos = d->tail % RING_BYTES;
        uint8_t *p = d->ring + pos;
        uint64_t due;
        uint32_t len;
        memcpy(&due, p, 8);
        memcpy(&len, p + 8, 4);
        if (len == WRAP_LEN) {
            d->tail += RING_BYTES - pos;
            continue;
        }
        uint64_t now = now_ns();
        if (due > now) return due;
        ssize_t w = write(d->out_fd, p + HDR_BYTES, len);
        if (w != (ssize_t)len) d->write_errors++;
        record_lateness(d, now - due);
        d->packets++;
        d->bytes += len;
        d->tail += (HDR_BYTES + len + 15u) & ~15ull;
    }
}

static void read_available(struct direction *d) {
    int batch = 0;
    while (batch < MAX_READ_BATCH) {
        if (!ring_has_room(d)) {
            d->ring_full_waits++;
            break;
        }
        uint64_t pos = d->head % RING_BYTES;
        if (RING_BYTES - pos < HDR_BYTES + MAX_PKT) {
            uint32_t wrap = WRAP_LEN;
            memcpy(d->ring + pos + 8, &wrap, 4);
            d->head += RING_BYTES - pos;
            pos = 0;
        }
        uint8_t *p = d->ring + pos;
        ssize_t r = read(d->in_fd, p + HDR_BYTES, MAX_PKT);
        if (r <= 0) break; // EAGAIN (or a transient error): nothing more now
        uint64_t due = now_ns() + d->delay_ns;
        uint32_t len = (uint32_t)r;
        memcpy(p, &due, 8);
        memcpy(p + 8, &len, 4);
        d->head += (HDR_BYTES + len + 15u) & ~15ull;
        batch++;
    }
    if (batch > 1) d->batched_reads++;
    if ((uint64_t)batch > d->max_batch) d->max_batch = batch;
    if (ring_used(d) > d->max_queued_bytes) d->max_queued_bytes = ring_used(d);
}

static void *run_direction(void *arg) {
    struct direction *d = arg;
    // Timer slack 1 ns: ppoll wakes as close to the due time as the hrtimer allows.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    // Real-time priority: a release must not wait behind other processes' time slices
    // (the machine is shared). The thread sleeps between packets, so it cannot starve anyone.
    if (d->rt_priority > 0) {
        struct sched_param sp = {.sched_priority = d->rt_priority};
        if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0)
            fprintf(stderr, "delayline: SCHED_FIFO not available, running at normal priority\n");
    }
    struct pollfd pfd = {.fd = d->in_fd, .events = POLLIN};
    while (!stop_flag) {
        uint64_t next = release_due(d);
        struct timespec ts;
        uint64_t wait_ns = 100000000ull; // re-check the stop flag every 100 ms
        if (next) {
            uint64_t now = now_ns();
            wait_ns = next > now ? next - now : 0;
        }
        ts.tv_sec = (time_t)(wait_ns / 1000000000ull);
        ts.tv_nsec = (long)(wait_ns % 1000000000ull);
        // Stop reading while the ring is full: only the timeout wakes us then.
        pfd.events = ring_has_room(d) ? POLLIN : 0;
        int n = ppoll(&pfd, 1, &ts, NULL);
        if (n > 0 && (pfd.revents & POLLIN)) read_available(d);
    }
    return NULL;
}

static uint64_t hist_quantile(const struct direction *d, double q) {
    uint64_t total = d->packets;
    if (!total) return 0;
    uint64_t rank = (uint64_t)(q * (double)(total - 1));
    uint64_t acc = 0;
    for (uint64_t i = 0; i < HIST_BUCKETS; i++) {
        acc += d->hist[i];
        if (acc > rank) return i;
    }
    return HIST_BUCKETS;
}

static void write_stats(FILE *f, const struct direction *d, int last) {
    fprintf(f,
            "  \"%s\": {\"packets\": %llu, \"bytes\": %llu, \"write_errors\": %llu, "
            "\"ring_full_waits\": %llu, \"batched_reads\": %llu, \"max_read_batch\": %llu, "
            "\"max_queued_bytes\": %llu, \"late_p50_us\": %llu, \"late_p99_us\": %llu, "
            "\"late_p999_us\": %llu, \"late_max_us\": %.1f, \"late_over_100ms\": %llu}%s\n",
            d->name, (unsigned long long)d->packets, (unsigned long long)d->bytes,
            (unsigned long long)d->write_errors, (unsigned long long)d->ring_full_waits,
            (unsigned long long)d->batched_reads, (unsigned long long)d->max_batch,
            (unsigned long long)d->max_queued_bytes, (unsigned long long)hist_quantile(d, 0.5),
            (unsigned long long)hist_quantile(d, 0.99), (unsigned long long)hist_quantile(d, 0.999),
            d->late_max_ns / 1000.0, (unsigned long long)d->late_over_hist, last ? "" : ",");
}

static void on_signal(int sig) {
    (void)sig;
    stop_flag = 1;
}

static void usage(void) {
    fprintf(stderr, "usage: delayline --tun-a NAME --tun-b NAME --netns-b PATH --delay-us N "
                    "[--stats FILE] [--rt-priority N (SCHED_FIFO, default 10; 0 = off)] "
                    "[--vnet-hdr 0|1 (GSO packets through the TUN pair)]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *tun_a = NULL, *tun_b = NULL, *netns_b = NULL, *stats = NULL;
    long delay_us = -1;
    int rt_priority = 10;
    int vnet_hdr = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--tun-a")) tun_a = argv[i + 1];
        else if (!strcmp(argv[i], "--tun-b")) tun_b = argv[i + 1];
        else if (!strcmp(argv[i], "--netns-b")) netns_b = argv[i + 1];
        else if (!strcmp(argv[i], "--delay-us")) delay_us = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--stats")) stats = argv[i + 1];
        else if (!strcmp(argv[i], "--rt-priority")) rt_priority = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--vnet-hdr")) vnet_hdr = atoi(argv[i + 1]);
        else usage();
    }
    if (!tun_a || !tun_b || !netns_b || delay_us < 0) usage();

    int fd_a = tun_attach(tun_a, vnet_hdr);
    int ns = open(netns_b, O_RDONLY | O_CLOEXEC);
    if (ns < 0 || setns(ns, CLONE_NEWNET) < 0) {
        fprintf(stderr, "setns %s: %s\n", netns_b, strerror(errno));
        return 2;
    }
    int fd_b = tun_attach(tun_b, vnet_hdr);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    struct direction dirs[2] = {
        {.name = "a_to_b", .in_fd = fd_a, .out_fd = fd_b},
        {.name = "b_to_a", .in_fd = fd_b, .out_fd = fd_a},
    };
    for (int i = 0; i < 2; i++) {
        dirs[i].delay_ns = (uint64_t)delay_us * 1000ull;
        dirs[i].rt_priority = rt_priority;
        dirs[i].ring = malloc(RING_BYTES);
        dirs[i].hist = calloc(HIST_BUCKETS, sizeof(uint64_t));
        if (!dirs[i].ring || !dirs[i].hist) {
            fprintf(stderr, "out of memory\n");
            return 2;
        }
    }
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, run_direction, &dirs[i]);
    printf("ready\n");
    fflush(stdout);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);

    FILE *f = stats ? fopen(stats, "w") : stdout;
    if (!f) f = stdout;
    fprintf(f, "{\n  \"delay_us\": %ld,\n", delay_us);
    write_stats(f, &dirs[0], 0);
    write_stats(f, &dirs[1], 1);
    fprintf(f, "}\n");
    if (f != stdout) fclose(f);
    return 0;
}
