//! librealsense's C API (`rs2_*`, stable across 2.5x), opened at run time.
//!
//! Only the functions rsbag calls are looked up, each once, when the
//! library is loaded; a library that lacks one is refused then, naming it.

use std::ffi::{c_char, c_float, c_int, c_void, CStr};
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// An opaque librealsense object (`rs2_context*`, `rs2_device*`, ...).
pub type Handle = *mut c_void;
/// `rs2_error*`.
pub type ErrorPtr = *mut c_void;

/// `rs2_intrinsics`.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct Rs2Intrinsics {
    pub width: c_int,
    pub height: c_int,
    pub ppx: c_float,
    pub ppy: c_float,
    pub fx: c_float,
    pub fy: c_float,
    pub model: c_int,
    pub coeffs: [c_float; 5],
}

/// `rs2_extrinsics`.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct Rs2Extrinsics {
    pub rotation: [c_float; 9],
    pub translation: [c_float; 3],
}

/// `rs2_frame_callback_ptr`.
pub type FrameCallbackPtr = unsafe extern "C" fn(Handle, *mut c_void);

/// `rs2_devices_changed_callback_ptr`: (removed, added, user); the lists
/// are the callee's to delete.
pub type DevicesChangedPtr = unsafe extern "C" fn(Handle, Handle, *mut c_void);

/// `rs2_notification_callback_ptr`: the notification is librealsense's.
pub type NotificationPtr = unsafe extern "C" fn(Handle, *mut c_void);

/// The oldest API version rsbag drives: librealsense 2.50.
const OLDEST: c_int = 25000;

/// Declares the table of functions and how each is looked up.
macro_rules! functions {
    ($($name:ident: fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        /// The `rs2_*` functions rsbag calls.
        #[allow(non_snake_case)]
        pub struct Functions {
            $(pub $name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
        }

        impl Functions {
            /// Look every function up in `library`.
            ///
            /// # Safety
            /// `library` must be librealsense (or export its C API with
            /// librealsense's signatures).
            unsafe fn look_up(library: &libloading::Library, path: &Path) -> Result<Functions> {
                Ok(Functions {
                    $($name: *library
                        .get(concat!(stringify!($name), "\0").as_bytes())
                        .map_err(|e| Error::Load {
                            path: path.to_owned(),
                            reason: format!("it has no {}: {e}", stringify!($name)),
                        })?,)*
                })
            }
        }
    };
}

functions! {
    rs2_get_api_version: fn(*mut ErrorPtr) -> c_int;
    rs2_get_error_message: fn(ErrorPtr) -> *const c_char;
    rs2_free_error: fn(ErrorPtr);
    rs2_create_context: fn(c_int, *mut ErrorPtr) -> Handle;
    rs2_delete_context: fn(Handle);
    rs2_context_add_device: fn(Handle, *const c_char, *mut ErrorPtr) -> Handle;
    rs2_query_devices: fn(Handle, *mut ErrorPtr) -> Handle;
    rs2_get_device_count: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_delete_device_list: fn(Handle);
    rs2_create_device: fn(Handle, c_int, *mut ErrorPtr) -> Handle;
    rs2_delete_device: fn(Handle);
    rs2_supports_device_info: fn(Handle, c_int, *mut ErrorPtr) -> c_int;
    rs2_get_device_info: fn(Handle, c_int, *mut ErrorPtr) -> *const c_char;
    rs2_camera_info_to_string: fn(c_int) -> *const c_char;
    rs2_query_sensors: fn(Handle, *mut ErrorPtr) -> Handle;
    rs2_get_sensors_count: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_delete_sensor_list: fn(Handle);
    rs2_create_sensor: fn(Handle, c_int, *mut ErrorPtr) -> Handle;
    rs2_delete_sensor: fn(Handle);
    rs2_supports_sensor_info: fn(Handle, c_int, *mut ErrorPtr) -> c_int;
    rs2_get_sensor_info: fn(Handle, c_int, *mut ErrorPtr) -> *const c_char;
    rs2_get_stream_profiles: fn(Handle, *mut ErrorPtr) -> Handle;
    rs2_get_stream_profiles_count: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_get_stream_profile: fn(Handle, c_int, *mut ErrorPtr) -> Handle;
    rs2_delete_stream_profiles_list: fn(Handle);
    rs2_get_stream_profile_data: fn(Handle, *mut c_int, *mut c_int, *mut c_int, *mut c_int, *mut c_int, *mut ErrorPtr);
    rs2_is_stream_profile_default: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_get_video_stream_resolution: fn(Handle, *mut c_int, *mut c_int, *mut ErrorPtr);
    rs2_get_video_stream_intrinsics: fn(Handle, *mut Rs2Intrinsics, *mut ErrorPtr);
    rs2_stream_to_string: fn(c_int) -> *const c_char;
    rs2_format_to_string: fn(c_int) -> *const c_char;
    rs2_distortion_to_string: fn(c_int) -> *const c_char;
    rs2_get_options_list: fn(Handle, *mut ErrorPtr) -> Handle;
    rs2_get_options_list_size: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_get_option_from_list: fn(Handle, c_int, *mut ErrorPtr) -> c_int;
    rs2_delete_options_list: fn(Handle);
    rs2_get_option_name: fn(Handle, c_int, *mut ErrorPtr) -> *const c_char;
    rs2_get_option: fn(Handle, c_int, *mut ErrorPtr) -> c_float;
    rs2_get_option_range: fn(Handle, c_int, *mut c_float, *mut c_float, *mut c_float, *mut c_float, *mut ErrorPtr);
    rs2_is_option_read_only: fn(Handle, c_int, *mut ErrorPtr) -> c_int;
    rs2_get_option_description: fn(Handle, c_int, *mut ErrorPtr) -> *const c_char;
    rs2_set_option: fn(Handle, c_int, c_float, *mut ErrorPtr);
    rs2_get_extrinsics: fn(Handle, Handle, *mut Rs2Extrinsics, *mut ErrorPtr);
    rs2_open_multiple: fn(Handle, *const Handle, c_int, *mut ErrorPtr);
    rs2_start: fn(Handle, FrameCallbackPtr, *mut c_void, *mut ErrorPtr);
    rs2_stop: fn(Handle, *mut ErrorPtr);
    rs2_close: fn(Handle, *mut ErrorPtr);
    rs2_release_frame: fn(Handle);
    rs2_get_frame_data: fn(Handle, *mut ErrorPtr) -> *const c_void;
    rs2_get_frame_data_size: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_get_frame_number: fn(Handle, *mut ErrorPtr) -> u64;
    rs2_get_frame_timestamp: fn(Handle, *mut ErrorPtr) -> f64;
    rs2_get_frame_timestamp_domain: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_timestamp_domain_to_string: fn(c_int) -> *const c_char;
    rs2_get_frame_stream_profile: fn(Handle, *mut ErrorPtr) -> Handle;
    rs2_get_frame_stride_in_bytes: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_supports_frame_metadata: fn(Handle, c_int, *mut ErrorPtr) -> c_int;
    rs2_get_frame_metadata: fn(Handle, c_int, *mut ErrorPtr) -> i64;
    rs2_frame_metadata_to_string: fn(c_int) -> *const c_char;
    rs2_playback_device_get_current_status: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_playback_status_to_string: fn(c_int) -> *const c_char;
    rs2_playback_device_pause: fn(Handle, *mut ErrorPtr);
    rs2_playback_device_resume: fn(Handle, *mut ErrorPtr);
    rs2_context_remove_device: fn(Handle, *const c_char, *mut ErrorPtr);
    rs2_set_devices_changed_callback: fn(Handle, DevicesChangedPtr, *mut c_void, *mut ErrorPtr);
    rs2_device_list_contains: fn(Handle, Handle, *mut ErrorPtr) -> c_int;
    rs2_set_notifications_callback: fn(Handle, NotificationPtr, *mut c_void, *mut ErrorPtr);
    rs2_get_notification_description: fn(Handle, *mut ErrorPtr) -> *const c_char;
    rs2_get_notification_timestamp: fn(Handle, *mut ErrorPtr) -> f64;
    rs2_get_notification_severity: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_get_notification_category: fn(Handle, *mut ErrorPtr) -> c_int;
    rs2_get_notification_serialized_data: fn(Handle, *mut ErrorPtr) -> *const c_char;
    rs2_log_severity_to_string: fn(c_int) -> *const c_char;
    rs2_notification_category_to_string: fn(c_int) -> *const c_char;
    rs2_is_device_extendable_to: fn(Handle, c_int, *mut ErrorPtr) -> c_int;
    rs2_extension_type_to_string: fn(c_int) -> *const c_char;
    rs2_is_enabled: fn(Handle, *mut c_int, *mut ErrorPtr);
    rs2_load_json: fn(Handle, *const c_void, u32, *mut ErrorPtr);
}

/// The names tried when `RSBAG_LIBREALSENSE` is not set.
#[cfg(target_os = "linux")]
const DEFAULT_NAMES: &[&str] = &["librealsense2.so.2", "librealsense2.so"];
#[cfg(target_os = "macos")]
const DEFAULT_NAMES: &[&str] = &["librealsense2.dylib", "librealsense2.2.dylib"];
#[cfg(target_os = "windows")]
const DEFAULT_NAMES: &[&str] = &["realsense2.dll"];
#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
const DEFAULT_NAMES: &[&str] = &["librealsense2.so"];

/// librealsense, loaded, with its API version checked.
pub struct Api {
    pub f: Functions,
    /// `rs2_get_api_version`: major * 10000 + minor * 100 + patch.
    pub version: c_int,
    pub path: PathBuf,
    // Kept open as long as the functions are used.
    _library: libloading::Library,
}

impl std::fmt::Debug for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Api")
            .field("version", &self.version)
            .field("path", &self.path)
            .finish()
    }
}

impl Api {
    /// Open librealsense: `RSBAG_LIBREALSENSE` if set, else the system's
    /// `librealsense2` under its usual names.
    pub fn load() -> Result<Api> {
        match std::env::var_os("RSBAG_LIBREALSENSE") {
            Some(path) => Api::load_from(Path::new(&path)),
            None => {
                let mut reasons = Vec::new();
                for name in DEFAULT_NAMES {
                    match Api::load_from(Path::new(name)) {
                        Ok(api) => return Ok(api),
                        Err(e) => reasons.push(e.to_string()),
                    }
                }
                Err(Error::NotInstalled(reasons.join("; ")))
            }
        }
    }

    /// Open the library at `path` (a file name alone is looked up as the
    /// system's loader does).
    pub fn load_from(path: &Path) -> Result<Api> {
        // SAFETY: loading runs the library's initialisers; librealsense's
        // are sound to run once per process.
        let library = unsafe { libloading::Library::new(path) }.map_err(|e| Error::Load {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        // SAFETY: the library is asked for librealsense's own functions,
        // with the signatures of its headers.
        let f = unsafe { Functions::look_up(&library, path) }?;
        let mut api = Api {
            f,
            version: 0,
            path: path.to_owned(),
            _library: library,
        };
        api.version = api.call(|e| unsafe { (api.f.rs2_get_api_version)(e) })?;
        if api.version < OLDEST || api.version >= 30000 {
            return Err(Error::Load {
                path: path.to_owned(),
                reason: format!(
                    "librealsense {} is not a 2.5x the C API of which rsbag knows (2.50 or later)",
                    version_text(api.version)
                ),
            });
        }
        Ok(api)
    }

    /// `major.minor.patch` of the loaded library.
    pub fn version_text(&self) -> String {
        version_text(self.version)
    }

    /// Run `call` with an `rs2_error**`; an error it sets is returned
    /// (and freed).
    pub fn call<T>(&self, call: impl FnOnce(*mut ErrorPtr) -> T) -> Result<T> {
        let mut error: ErrorPtr = std::ptr::null_mut();
        let value = call(&mut error);
        if error.is_null() {
            return Ok(value);
        }
        // SAFETY: `error` was set by librealsense and is freed once.
        let message = unsafe {
            let text = string((self.f.rs2_get_error_message)(error));
            (self.f.rs2_free_error)(error);
            text
        };
        Err(Error::Librealsense(message))
    }
}

/// A C string librealsense returned, as text ("" for null).
///
/// # Safety
/// `text` is null or a NUL-terminated string alive for this call.
pub unsafe fn string(text: *const c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    CStr::from_ptr(text).to_string_lossy().into_owned()
}

fn version_text(version: c_int) -> String {
    format!(
        "{}.{}.{}",
        version / 10000,
        version / 100 % 100,
        version % 100
    )
}
