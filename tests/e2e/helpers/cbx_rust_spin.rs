// symbols e2e helper (Rust): spins for SECONDS (default 3) in
// main -> cbx_rust_spin::shapes::outer_cbxrust -> <Spinner<u32>>::inner_cbxrust,
// a module path, a generic impl.  Built with frame pointers and no
// inlining.  Prints its pid first.
use std::time::{Duration, Instant};

pub mod shapes {
    pub struct Spinner<T> {
        pub seed: T,
    }

    impl<T: Copy + Into<u64>> Spinner<T> {
        #[inline(never)]
        pub fn inner_cbxrust(&self, sink: &mut u64) {
            for i in 0..100000u64 {
                *sink = sink.wrapping_add(std::hint::black_box(i) * self.seed.into());
            }
        }
    }

    #[inline(never)]
    pub fn outer_cbxrust(end: std::time::Instant) -> u64 {
        let s = Spinner { seed: 7u32 };
        let mut sink = 0u64;
        while std::time::Instant::now() < end {
            s.inner_cbxrust(&mut sink);
        }
        sink
    }
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3.0);
    println!("{}", std::process::id());
    let v = shapes::outer_cbxrust(Instant::now() + Duration::from_secs_f64(secs));
    std::process::exit((v & 0) as i32);
}
