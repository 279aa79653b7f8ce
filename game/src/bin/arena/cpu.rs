//! The processor time of the calling thread, to tell a think's own work
//! from the wall clock of a shared machine (the wall clock also counts the
//! time other processes had the core).

/// The calling thread's user and system time in milliseconds, from
/// `/proc/thread-self/stat` (Linux; in clock ticks, taken as 100 a second,
/// so 10 ms steps), or `None` where it cannot be read.
pub(crate) fn thread_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The command name, in parentheses, may hold spaces: count from after it.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let mut fields = rest.split(' ');
    // Fields 14 (user) and 15 (system) of proc(5); `rest` starts at field 3.
    let user: f64 = fields.nth(11)?.parse().ok()?;
    let system: f64 = fields.next()?.parse().ok()?;
    Some((user + system) * 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_shows_in_the_threads_time() {
        let Some(before) = thread_ms() else {
            return; // not Linux
        };
        let start = std::time::Instant::now();
        let mut x = 1u64;
        while start.elapsed().as_millis() < 200 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let spent = thread_ms().expect("read once, read again") - before;
        assert!(spent >= 50.0, "{spent} ms for 200 ms of work");
    }
}
