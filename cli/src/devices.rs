//! `rsbag devices`: the RealSense devices librealsense sees.

use std::path::PathBuf;

use rsbag::{Error, Result};
use rsbag_librealsense::{Context, DeviceInfo};

/// List the RealSense devices connected, as librealsense sees them: name,
/// serial number, firmware, USB type, sensors, stream profiles (with
/// intrinsics) and options (value, range, read-only).
///
/// librealsense is loaded when the command runs: `RSBAG_LIBREALSENSE=PATH`
/// if set, else the system's `librealsense2`. `--simulate FILE` adds a
/// recording as a device, played by librealsense as if a camera were
/// connected (to try things without one).
///
/// `--json` prints one object: `library` {`path`, `version`} and
/// `devices` [{`info` {camera-info name: value}, `sensors` [{`info`,
/// `profiles` [{`stream`, `index`, `format`, `fps`, `unique_id`,
/// `default`, `resolution` ([width, height] or null), `intrinsics` (null,
/// or {`ppx`, `ppy`, `fx`, `fy`, `model`, `coeffs`})}], `options`
/// [{`name`, `value`, `min`, `max`, `step`, `default`, `read_only`}]}]}].
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// A recording librealsense plays as a connected device (repeatable).
    #[arg(long, value_name = "FILE")]
    simulate: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    let context = context_with(&args.simulate)?;
    let devices = context.devices().map_err(librealsense_error)?;
    let text = if args.json {
        let json = serde_json::json!({
            "library": {
                "path": context.library_path(),
                "version": context.library_version(),
            },
            "devices": devices,
        });
        format!("{json}\n")
    } else {
        text(&context, &devices)
    };
    super::emit(&text);
    Ok(())
}

/// A librealsense context (the library loaded as `rsbag devices` says)
/// with the recordings `simulate` played as connected devices.
pub fn context_with(simulate: &[PathBuf]) -> Result<Context> {
    let mut context = Context::new().map_err(librealsense_error)?;
    for file in simulate {
        if !file.is_file() {
            return Err(Error::Io {
                path: file.clone(),
                error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such recording"),
            });
        }
        context.simulate(file).map_err(librealsense_error)?;
    }
    Ok(context)
}

/// librealsense's error as the tool reports errors.
pub fn librealsense_error(e: rsbag_librealsense::Error) -> Error {
    Error::InvalidArgument(e.to_string())
}

fn text(context: &Context, devices: &[DeviceInfo]) -> String {
    let mut out = String::new();
    outln!(
        out,
        "librealsense {} ({}): {} device{}",
        context.library_version(),
        context.library_path().display(),
        devices.len(),
        if devices.len() == 1 { "" } else { "s" }
    );
    for device in devices {
        let info = |key: &str| device.info.get(key).map_or("-", String::as_str);
        outln!(
            out,
            "\n{} serial {} firmware {} usb {}",
            info("Name"),
            info("Serial Number"),
            info("Firmware Version"),
            info("Usb Type Descriptor")
        );
        for sensor in &device.sensors {
            let name = sensor.info.get("Name").map_or("-", String::as_str);
            outln!(out, "  {name}");
            for p in &sensor.profiles {
                let size = p
                    .resolution
                    .map_or(String::new(), |(w, h)| format!(" {w}x{h}"));
                let default = if p.default { " (default)" } else { "" };
                outln!(
                    out,
                    "    {} {} {}{size}@{}{default}",
                    p.stream,
                    p.index,
                    p.format,
                    p.fps
                );
            }
            for o in &sensor.options {
                let access = if o.read_only { ", read only" } else { "" };
                outln!(
                    out,
                    "    option {} = {} [{} .. {} step {}, default {}{access}]",
                    o.name,
                    o.value,
                    o.min,
                    o.max,
                    o.step,
                    o.default
                );
            }
        }
    }
    out
}
