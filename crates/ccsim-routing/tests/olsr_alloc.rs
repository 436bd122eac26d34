//! Route lookups run per data packet: they must not allocate.

mod olsr_net;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use ccsim_core::Time;
use ccsim_routing::olsr::OlsrConfig;
use olsr_net::{seed004_grid, Net};

struct Counting;
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn route_lookups_do_not_allocate() {
    let g = seed004_grid();
    let mut net = Net::new(&OlsrConfig::default(), 26, &g.links, &g.hna, 1);
    net.run_until(Time::from_secs(20));
    let mains: Vec<u32> = net.routers.iter().map(|r| r.main_addr()).collect();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut found = 0u64;
    for _ in 0..100 {
        for r in &net.routers {
            for &n in &g.networks {
                found += r.route_to_network(n).is_some() as u64;
            }
            for &m in &mains {
                found += r.route_to_addr(m).is_some() as u64;
            }
        }
    }
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(allocations, 0);
    // Converged by 20 s: every router reaches the 25 networks it does not announce and the
    // 25 other routers.
    assert_eq!(found, 100 * 26 * 50);
}
