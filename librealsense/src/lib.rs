//! # rsbag-librealsense
//!
//! RealSense cameras for rsbag through librealsense itself: its C API
//! (`rs2_*`, stable across 2.5x) is opened at run time with `libloading`,
//! so nothing of librealsense is needed to build rsbag. The library is
//! `RSBAG_LIBREALSENSE=PATH` if set, else the system's `librealsense2`
//! (`librealsense2.so.2` on Linux).
//!
//! It lists devices (camera info, sensors, stream profiles with
//! intrinsics, options with their ranges) and makes each an rsbag
//! [`Device`](rsbag::device::Device) to record: frames with metadata,
//! options, notifications, advanced-mode presets, and the device's removal
//! ([`Context::removals`]). A recording can stand in for a camera
//! ([`Context::simulate`]): librealsense plays it as a device of the
//! context, which is how this is tested on machines without one; removing
//! it ([`Context::unplug`]) is an unplugged camera.
//!
//! ```no_run
//! let context = rsbag_librealsense::Context::new()?;
//! for device in context.devices()? {
//!     println!("{} {}", device.info["Name"], device.info["Serial Number"]);
//! }
//! # Ok::<(), rsbag_librealsense::Error>(())
//! ```

#![deny(missing_docs, missing_debug_implementations)]

mod api;
mod device;
mod list;
mod watch;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use device::{LibrealsenseDevice, LibrealsenseSensor};
pub use list::{DeviceInfo, Intrinsics, OptionInfo, ProfileInfo, SensorInfo};

/// What can go wrong with librealsense.
#[derive(Debug)]
pub enum Error {
    /// No librealsense under its usual names.
    NotInstalled(String),
    /// The library at a path could not be used.
    Load {
        /// The library asked for.
        path: PathBuf,
        /// Why it could not be used.
        reason: String,
    },
    /// librealsense reported an error.
    Librealsense(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NotInstalled(reasons) => write!(
                f,
                "librealsense is not installed: install librealsense2 (Intel's packages, \
                 e.g. `apt install librealsense2`, or build it), or set RSBAG_LIBREALSENSE \
                 to its library ({reasons}); or use pyrealsense2's, whose extension module \
                 exports the same C API: `pip install pyrealsense2`, then \
                 LD_PRELOAD=\"$(python3 -c 'import sysconfig as s; print(s.get_config_var(\"LIBDIR\") + \"/\" + s.get_config_var(\"INSTSONAME\"))')\" \
                 RSBAG_LIBREALSENSE=\"$(python3 -c 'import pyrealsense2 as rs; print(rs.pyrealsense2.__file__)')\" \
                 rsbag devices (the guide's Recording page)"
            ),
            Error::Load { path, reason } => {
                write!(f, "cannot use librealsense {}: {reason}", path.display())
            }
            Error::Librealsense(message) => write!(f, "librealsense: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// librealsense's error about `file`, naming it.
fn in_file(error: Error, file: &Path) -> Error {
    match error {
        Error::Librealsense(message) => {
            Error::Librealsense(format!("{}: {message}", file.display()))
        }
        other => other,
    }
}

/// The result of this crate's calls.
pub type Result<T> = std::result::Result<T, Error>;

/// A librealsense context: the devices connected, and the recordings
/// added as simulated devices.
#[derive(Debug)]
pub struct Context {
    // Dropped first: librealsense keeps a simulated device only while its
    // handle lives, and the library stays loaded until the context is
    // gone.
    simulated: Vec<list::Owned>,
    context: list::Owned,
    watch: &'static watch::Watch,
    removals: crossbeam_channel::Receiver<String>,
    api: Arc<api::Api>,
}

impl Context {
    /// Load librealsense ([`RSBAG_LIBREALSENSE`](self) or the system's)
    /// and make a context.
    pub fn new() -> Result<Context> {
        Context::with_library(api::Api::load()?)
    }

    /// Load librealsense from `path` and make a context.
    pub fn from_library(path: &Path) -> Result<Context> {
        Context::with_library(api::Api::load_from(path)?)
    }

    fn with_library(api: api::Api) -> Result<Context> {
        let version = api.version;
        // SAFETY: creating a context for the version the library reports.
        let raw = api.call(|e| unsafe { (api.f.rs2_create_context)(version, e) })?;
        let context = list::Owned::new(raw, api.f.rs2_delete_context);
        let api = Arc::new(api);
        let (watch, removals) = watch::Watch::install(&api, context.raw())?;
        Ok(Context {
            simulated: Vec::new(),
            context,
            watch,
            removals,
            api,
        })
    }

    /// The loaded library's version, `major.minor.patch`.
    pub fn library_version(&self) -> String {
        self.api.version_text()
    }

    /// The loaded library's path, as asked for.
    pub fn library_path(&self) -> &Path {
        &self.api.path
    }

    /// Add the recording `file` as a device of this context, played by
    /// librealsense as if a camera were connected.
    pub fn simulate(&mut self, file: &Path) -> Result<()> {
        let text = file.to_string_lossy();
        let name = std::ffi::CString::new(text.as_bytes()).map_err(|_| Error::Load {
            path: file.to_owned(),
            reason: "a path with a NUL byte".into(),
        })?;
        let f = &self.api.f;
        // SAFETY: the context is alive and the name NUL-terminated; the
        // device handle returned is ours to delete.
        let device = self
            .api
            .call(|e| unsafe { (f.rs2_context_add_device)(self.context.raw(), name.as_ptr(), e) })
            .map_err(|e| in_file(e, file))?;
        self.simulated
            .push(list::Owned::new(device, f.rs2_delete_device));
        Ok(())
    }

    /// Remove the simulated device playing `file` from the context, as if
    /// its camera were unplugged: librealsense reports the removal to the
    /// context's devices-changed callback ([`removals`](Self::removals)).
    pub fn unplug(&self, file: &Path) -> Result<()> {
        let name =
            std::ffi::CString::new(file.to_string_lossy().as_bytes()).map_err(|_| Error::Load {
                path: file.to_owned(),
                reason: "a path with a NUL byte".into(),
            })?;
        let f = &self.api.f;
        // SAFETY: a live context and a NUL-terminated name.
        self.api
            .call(|e| unsafe {
                (f.rs2_context_remove_device)(self.context.raw(), name.as_ptr(), e)
            })
            .map_err(|e| in_file(e, file))
    }

    /// The serial numbers of devices taken from this context with
    /// [`device`](Self::device) that were then removed (unplugged), each
    /// once, as librealsense reports them.
    pub fn removals(&self) -> crossbeam_channel::Receiver<String> {
        self.removals.clone()
    }

    /// Every device of the context, described.
    pub fn devices(&self) -> Result<Vec<DeviceInfo>> {
        list::devices(&self.api, self.context.raw())
    }

    /// The device whose serial number is `serial`, as an rsbag
    /// [`Device`](rsbag::device::Device) to record or play with.
    pub fn device(&self, serial: &str) -> Result<LibrealsenseDevice> {
        let f = &self.api.f;
        let api = &self.api;
        // SAFETY: the context is alive; the list and device are owned.
        let list = list::Owned::new(
            api.call(|e| unsafe { (f.rs2_query_devices)(self.context.raw(), e) })?,
            f.rs2_delete_device_list,
        );
        let count = api.call(|e| unsafe { (f.rs2_get_device_count)(list.raw(), e) })?;
        let mut serials = Vec::new();
        for i in 0..count {
            let device = list::Owned::new(
                api.call(|e| unsafe { (f.rs2_create_device)(list.raw(), i, e) })?,
                f.rs2_delete_device,
            );
            let info = list::device_info(api, device.raw())?;
            let number = info.info.get("Serial Number").cloned().unwrap_or_default();
            if number == serial {
                let device = LibrealsenseDevice::new(api.clone(), device)?;
                self.watch.add(serial, device.handle());
                return Ok(device);
            }
            serials.push(number);
        }
        Err(Error::Librealsense(format!(
            "no device with serial number {serial:?}; connected: {}",
            if serials.is_empty() {
                "none".to_owned()
            } else {
                serials.join(", ")
            }
        )))
    }
}
