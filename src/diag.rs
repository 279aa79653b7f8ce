//! Frame-time and memory figures (`JUNQI_DIAG=1`): every second, the frames per second and the
//! resident memory are logged; a summary line is printed on exit. `JUNQI_DIAG=passes` also times
//! each render pass (GPU timestamps: on a software renderer, the rasteriser's time) and prints
//! their means on exit.

use bevy::prelude::*;

/// Running figures.
#[derive(Resource, Default, Debug)]
pub struct DiagFigures {
    frames: u32,
    secs: f32,
    /// Frames per second of each full second measured (the first second is skipped: start-up).
    pub fps: Vec<f32>,
    /// Highest resident memory seen, in MiB.
    pub max_rss_mib: f64,
}

/// Resident memory of this process in MiB (Linux; `None` elsewhere).
pub fn rss_mib() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0 / (1024.0 * 1024.0))
}

/// Registers the figures when `JUNQI_DIAG` is set (rendering app only).
pub(super) fn plugin(app: &mut App) {
    if std::env::var_os("JUNQI_DIAG").is_some() {
        app.init_resource::<DiagFigures>()
            .add_systems(Update, measure)
            .add_systems(Last, summary);
        if std::env::var_os("JUNQI_DIAG").is_some_and(|v| v == "passes") {
            app.add_plugins(bevy::render::diagnostic::RenderDiagnosticsPlugin)
                .add_systems(Last, pass_summary);
        }
    }
}

fn pass_summary(mut exits: MessageReader<AppExit>, store: Res<bevy::diagnostic::DiagnosticsStore>) {
    if exits.read().next().is_none() {
        return;
    }
    for d in store.iter() {
        let path = d.path().as_str();
        if path.starts_with("render/")
            && (path.ends_with("elapsed_gpu") || path.ends_with("elapsed_cpu"))
            && let Some(mean) = d.average()
        {
            println!("DIAG pass {path} mean={mean:.2}ms");
        }
    }
}

fn measure(time: Res<Time<Real>>, mut d: ResMut<DiagFigures>, mut skipped: Local<bool>) {
    d.frames += 1;
    d.secs += time.delta_secs();
    if d.secs >= 1.0 {
        let fps = d.frames as f32 / d.secs;
        let rss = rss_mib().unwrap_or(0.0);
        d.max_rss_mib = d.max_rss_mib.max(rss);
        if *skipped {
            d.fps.push(fps);
            info!("diag: {fps:.1} fps, {rss:.0} MiB resident");
        }
        *skipped = true;
        d.frames = 0;
        d.secs = 0.0;
    }
}

fn summary(mut exits: MessageReader<AppExit>, d: Res<DiagFigures>) {
    if exits.read().next().is_some() && !d.fps.is_empty() {
        let mean = d.fps.iter().sum::<f32>() / d.fps.len() as f32;
        let min = d.fps.iter().copied().fold(f32::INFINITY, f32::min);
        println!(
            "DIAG seconds={} mean_fps={mean:.1} min_fps={min:.1} max_rss_mib={:.0} board_redraws={}",
            d.fps.len(),
            d.max_rss_mib,
            crate::board::REDRAWS.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
}
