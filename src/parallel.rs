//! Work spread over the cores for a moment: decoding a `.db3`'s images
//! before delivery, compressing them before writing, rendering frames
//! into files.

/// `f` of every item, in order, computed on up to as many threads as
/// there are cores (the calling thread included). Where no thread can be
/// started, the calling thread does it all.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    // Asked once: the answer reads cgroup files each time.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    if items.len() <= 1 {
        return items.iter().map(f).collect();
    }
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let workers = cores.min(items.len());
    if workers <= 1 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<parking_lot::Mutex<Option<R>>> = items
        .iter()
        .map(|_| parking_lot::Mutex::new(None))
        .collect();
    let work = || loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(item) = items.get(i) else { break };
        let result = f(item);
        *slots[i].lock() = Some(result);
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            // A thread that cannot start leaves its share to the others.
            let _ = std::thread::Builder::new()
                .name("rsbag-decode".into())
                .spawn_scoped(scope, work);
        }
        work();
    });
    slots
        .into_iter()
        .map(|slot| slot.into_inner())
        .collect::<Option<Vec<R>>>()
        .unwrap_or_default()
}
