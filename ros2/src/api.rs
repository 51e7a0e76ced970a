//! rcl's C API, opened at run time from the user's ROS 2, and the message
//! type supports, found the way a sourced install exports them.
//!
//! Only the functions rsbag calls are looked up, each once, when rcl is
//! loaded; a library that lacks one is refused then, naming it. The
//! structures rsbag reads or writes field by field (`rmw_qos_profile_t`,
//! `rcutils_uint8_array_t`, `rcl_wait_set_t`'s first two fields) have had
//! one layout since Foxy; the others are opaque buffers at least as large
//! as the C ones (checked against the headers by this crate's tests).

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

use parking_lot::Mutex;

use crate::{Error, Result};

/// `rcl_ret_t`.
pub type Ret = i32;
/// `RCL_RET_OK`.
pub const RET_OK: Ret = 0;
/// `RCL_RET_TIMEOUT`: a wait ended with nothing ready.
pub const RET_TIMEOUT: Ret = 2;
/// `RCL_RET_SUBSCRIPTION_TAKE_FAILED`: nothing was there to take.
pub const RET_TAKE_FAILED: Ret = 401;

/// `rcutils_allocator_t`: the default one is asked of rcutils and passed
/// back as it is.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Allocator {
    allocate: *mut c_void,
    deallocate: *mut c_void,
    reallocate: *mut c_void,
    zero_allocate: *mut c_void,
    state: *mut c_void,
}

/// `rcutils_uint8_array_t` (`rcl_serialized_message_t`): a CDR message.
#[repr(C)]
#[derive(Debug)]
pub struct SerializedMessage {
    pub buffer: *mut u8,
    pub buffer_length: usize,
    pub buffer_capacity: usize,
    pub allocator: Allocator,
}

/// `rmw_time_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct RmwTime {
    pub sec: u64,
    pub nsec: u64,
}

/// `rmw_qos_profile_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct QosProfile {
    pub history: u32,
    pub depth: usize,
    pub reliability: u32,
    pub durability: u32,
    pub deadline: RmwTime,
    pub lifespan: RmwTime,
    pub liveliness: u32,
    pub liveliness_lease_duration: RmwTime,
    pub avoid_ros_namespace_conventions: bool,
}

/// `RMW_QOS_POLICY_HISTORY_KEEP_LAST`.
pub const HISTORY_KEEP_LAST: u32 = 1;
/// `RMW_QOS_POLICY_RELIABILITY_RELIABLE`.
pub const RELIABILITY_RELIABLE: u32 = 1;
/// `RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT`.
pub const RELIABILITY_BEST_EFFORT: u32 = 2;
/// `RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL`.
pub const DURABILITY_TRANSIENT_LOCAL: u32 = 1;
/// `RMW_QOS_POLICY_DURABILITY_VOLATILE`.
pub const DURABILITY_VOLATILE: u32 = 2;

/// An opaque rcl structure rcl fills in place: zeroed (what rcl's
/// `rcl_get_zero_initialized_*` return), at least as large as the C
/// structure (`rcl_context_t` is 24 bytes, `rcl_node_options_t` and
/// `rcl_publisher_options_t` 152, `rcl_subscription_options_t` 160,
/// `rmw_message_info_t` 64, `rcl_wait_set_t` 104 in Kilted), and returned
/// by value through memory (the C ones are larger than 16 bytes).
#[repr(C, align(16))]
pub struct Opaque(pub [u8; 512]);

impl Opaque {
    /// A zeroed structure on the heap, where rcl may keep pointers to it.
    pub fn zeroed() -> Box<Opaque> {
        Box::new(Opaque([0; 512]))
    }

    /// The structure's address for rcl.
    pub fn ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr().cast()
    }
}

/// `rcutils_error_string_t`.
#[repr(C)]
pub struct ErrorString(pub [c_char; 1024]);

/// Declares the table of functions and how each is looked up.
macro_rules! functions {
    ($($name:ident: fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        /// The rcl and rcutils functions rsbag calls.
        #[allow(non_snake_case)]
        pub struct Functions {
            $(pub $name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
        }

        impl Functions {
            /// Look every function up in `library` (and the libraries
            /// it links).
            ///
            /// # Safety
            /// `library` must be rcl, with the signatures of its headers.
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

type P = *mut c_void;
type C = *const c_void;

functions! {
    rcutils_get_default_allocator: fn() -> Allocator;
    rcutils_get_error_string: fn() -> ErrorString;
    rcutils_reset_error: fn();
    rcutils_uint8_array_init: fn(*mut SerializedMessage, usize, *const Allocator) -> Ret;
    rcutils_uint8_array_fini: fn(*mut SerializedMessage) -> Ret;
    rcl_init_options_init: fn(P, Allocator) -> Ret;
    rcl_init_options_fini: fn(P) -> Ret;
    rcl_init: fn(c_int, *const *const c_char, C, P) -> Ret;
    rcl_shutdown: fn(P) -> Ret;
    rcl_context_fini: fn(P) -> Ret;
    rcl_node_get_default_options: fn() -> Opaque;
    rcl_node_init: fn(P, *const c_char, *const c_char, P, C) -> Ret;
    rcl_node_fini: fn(P) -> Ret;
    rcl_publisher_get_default_options: fn() -> Opaque;
    rcl_publisher_init: fn(P, C, C, *const c_char, C) -> Ret;
    rcl_publisher_fini: fn(P, P) -> Ret;
    rcl_publish_serialized_message: fn(C, *const SerializedMessage, P) -> Ret;
    rcl_publisher_get_subscription_count: fn(C, *mut usize) -> Ret;
    rcl_publisher_wait_for_all_acked: fn(C, i64) -> Ret;
    rcl_subscription_get_default_options: fn() -> Opaque;
    rcl_subscription_init: fn(P, C, C, *const c_char, C) -> Ret;
    rcl_subscription_fini: fn(P, P) -> Ret;
    rcl_take_serialized_message: fn(C, *mut SerializedMessage, P, P) -> Ret;
    rcl_subscription_get_publisher_count: fn(C, *mut usize) -> Ret;
    rcl_wait_set_init: fn(P, usize, usize, usize, usize, usize, usize, P, Allocator) -> Ret;
    rcl_wait_set_fini: fn(P) -> Ret;
    rcl_wait_set_clear: fn(P) -> Ret;
    rcl_wait_set_add_subscription: fn(P, C, *mut usize) -> Ret;
    rcl_wait: fn(P, i64) -> Ret;
}

/// Where ROS 2's libraries are looked for: `RSBAG_ROS2=PREFIX`'s `lib`,
/// then each `AMENT_PREFIX_PATH` entry's; after them the system's loader
/// (`LD_LIBRARY_PATH`, which a sourced install sets).
fn library_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(prefix) = std::env::var_os("RSBAG_ROS2") {
        let prefix = PathBuf::from(prefix);
        dirs.push(prefix.join("lib"));
        // ROS 2 from PyPI keeps the libraries its wheels link beside
        // their Python packages.
        if let Ok(entries) = std::fs::read_dir(prefix.join("lib")) {
            for python in entries.flatten() {
                let site = python.path().join("site-packages");
                if let Ok(packages) = std::fs::read_dir(&site) {
                    dirs.extend(packages.flatten().map(|p| p.path()).filter(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("ros_") && n.ends_with(".libs"))
                    }));
                }
            }
        }
    }
    if let Some(paths) = std::env::var_os("AMENT_PREFIX_PATH") {
        dirs.extend(std::env::split_paths(&paths).map(|p| p.join("lib")));
    }
    dirs
}

/// The `LD_LIBRARY_PATH` a process needs for ROS 2 under `RSBAG_ROS2`
/// when its library directories are not on it yet (`None` when they are,
/// or it is not set): ROS 2 opens the RMW and the type supports by name,
/// which the loader looks up on the `LD_LIBRARY_PATH` the process started
/// with, so the process must start again with it (as a sourced install's
/// setup script arranges, and ROS 2's Python wheels do by starting Python
/// again).
pub fn prefix_library_path() -> Option<std::ffi::OsString> {
    std::env::var_os("RSBAG_ROS2")?;
    let old = std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default();
    let on_it: Vec<PathBuf> = std::env::split_paths(&old).collect();
    let dirs: Vec<PathBuf> = library_dirs()
        .into_iter()
        .filter(|d| d.is_dir() && !on_it.contains(d))
        .collect();
    if dirs.is_empty() {
        return None;
    }
    std::env::join_paths(dirs.into_iter().chain(on_it)).ok()
}

/// The libraries opened, kept open for the process's life: rcl's
/// structures and the type supports' handles point into them.
static OPENED: Mutex<Vec<libloading::Library>> = Mutex::new(Vec::new());

/// Open library `name` from `dirs` (else by name alone, as the loader
/// looks it up), for good: where it was found.
fn open(name: &str, dirs: &[PathBuf]) -> std::result::Result<PathBuf, String> {
    let path = dirs
        .iter()
        .map(|d| d.join(name))
        .find(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from(name));
    // SAFETY: loading runs the library's initialisers, which ROS 2's
    // libraries expect to run once per process, as here (a library open
    // already is only counted again).
    let library = unsafe {
        libloading::os::unix::Library::open(
            Some(&path),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
        )
    }
    .map_err(|e| e.to_string())?;
    OPENED.lock().push(library.into());
    Ok(path)
}

/// rcl, loaded.
pub struct Api {
    pub f: Functions,
    /// Where rcl was found (a bare name: by the system's loader).
    pub path: PathBuf,
    dirs: Vec<PathBuf>,
}

impl std::fmt::Debug for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Api").field("path", &self.path).finish()
    }
}

impl Api {
    /// Open rcl (and through it rcutils and the RMW implementation
    /// `RMW_IMPLEMENTATION` names, else the install's default).
    pub fn load() -> Result<Api> {
        let dirs = library_dirs();
        // Before rcl: loading rcl checks the RMW it finds against
        // RMW_IMPLEMENTATION and ends the process on a mismatch.
        if let Some(rmw) = std::env::var_os("RMW_IMPLEMENTATION") {
            let rmw = format!("lib{}.so", rmw.to_string_lossy());
            open(&rmw, &dirs).map_err(|reason| Error::Load {
                path: PathBuf::from(&rmw),
                reason: format!(
                    "RMW_IMPLEMENTATION names an RMW that cannot be loaded (install it, or \
                     unset RMW_IMPLEMENTATION for the default): {reason}"
                ),
            })?;
        }
        let path = open("librcl.so", &dirs).map_err(|reason| {
            if reason.contains("undefined symbol: Py") {
                Error::Load {
                    path: PathBuf::from("librcl.so"),
                    reason: format!(
                        "this rcl links Python's library (ROS 2 from PyPI does): start rsbag \
                         with LD_PRELOAD set to it, e.g. LD_PRELOAD=\"$(python3 -c 'import \
                         sysconfig as s; print(s.get_config_var(\"LIBDIR\") + \"/\" + \
                         s.get_config_var(\"INSTSONAME\"))')\" ({reason})"
                    ),
                }
            } else {
                Error::NotInstalled(reason)
            }
        })?;
        // SAFETY: dlopen of a library already open returns it again.
        let library = unsafe { libloading::Library::new(&path) }.map_err(|e| Error::Load {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        // SAFETY: rcl's own functions, with the signatures of its headers.
        let f = unsafe { Functions::look_up(&library, &path) }?;
        OPENED.lock().push(library);
        Ok(Api { f, path, dirs })
    }

    /// The `rosidl_message_type_support_t` of message type `type_name`
    /// (`sensor_msgs/msg/Image`), from its package's C type support
    /// library.
    pub fn type_support(&self, type_name: &str) -> Result<*const c_void> {
        let missing = |reason: String| Error::MissingType {
            type_name: type_name.to_owned(),
            reason,
        };
        let mut parts = type_name.split('/');
        let (Some(package), Some("msg"), Some(name), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(missing("not a package/msg/Name type".into()));
        };
        let library = format!("lib{package}__rosidl_typesupport_c.so");
        let path = open(&library, &self.dirs).map_err(missing)?;
        let symbol = format!(
            "rosidl_typesupport_c__get_message_type_support_handle__{package}__msg__{name}\0"
        );
        // SAFETY: the library is open (kept in OPENED); the function takes
        // nothing and returns a pointer to a static structure.
        unsafe {
            let library = libloading::Library::new(&path).map_err(|e| missing(e.to_string()))?;
            let get: libloading::Symbol<unsafe extern "C" fn() -> *const c_void> = library
                .get(symbol.as_bytes())
                .map_err(|e| missing(e.to_string()))?;
            let handle = get();
            OPENED.lock().push(library);
            if handle.is_null() {
                return Err(missing("its type support handle is null".into()));
            }
            Ok(handle)
        }
    }

    /// `rcutils_get_default_allocator()`.
    pub fn allocator(&self) -> Allocator {
        // SAFETY: returns a structure of function pointers.
        unsafe { (self.f.rcutils_get_default_allocator)() }
    }

    /// `Ok` for `RCL_RET_OK`, else the error rcl set, saying `what` failed.
    pub fn check(&self, ret: Ret, what: impl FnOnce() -> String) -> Result<()> {
        if ret == RET_OK {
            return Ok(());
        }
        Err(Error::Rcl {
            what: what(),
            message: self.take_error(ret),
        })
    }

    /// rcl's error text (and the code), cleared.
    pub fn take_error(&self, ret: Ret) -> String {
        // SAFETY: the error string is a NUL-terminated array; resetting
        // the (thread-local) error state is always sound.
        unsafe {
            let text = (self.f.rcutils_get_error_string)();
            (self.f.rcutils_reset_error)();
            let text = CStr::from_ptr(text.0.as_ptr())
                .to_string_lossy()
                .into_owned();
            if text.is_empty() {
                format!("rcl error {ret}")
            } else {
                format!("{text} (rcl error {ret})")
            }
        }
    }
}

/// A Rust string as a C string (a NUL inside is an argument error).
pub fn c_string(what: &str, text: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::InvalidArgument(format!("{what} {text:?} has a NUL")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::mem::{offset_of, size_of};

    /// The sizes, offsets and constants of rcl's headers, from a C program
    /// built against those of the ROS 2 the tests use (`target/venv-ros2`,
    /// which scripts/install-test-deps.sh makes, or `RSBAG_VENV_ROS2`).
    fn from_headers() -> BTreeMap<String, usize> {
        let venv = match std::env::var_os("RSBAG_VENV_ROS2") {
            Some(path) => PathBuf::from(path),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/venv-ros2"),
        };
        let include = venv.join("include");
        assert!(
            include.join("rcl/rcl/rcl.h").exists(),
            "{} has no ROS 2 headers: run scripts/install-test-deps.sh",
            venv.display()
        );
        let dir = std::env::temp_dir().join(format!("rsbag-ros2-layout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let source = dir.join("layout.c");
        std::fs::write(&source, LAYOUT_C).expect("write the C program");
        let mut gcc = std::process::Command::new("gcc");
        for package in std::fs::read_dir(&include).expect("include dir").flatten() {
            gcc.arg(format!("-I{}", package.path().display()));
        }
        let exe = dir.join("layout");
        let built = gcc
            .arg(&source)
            .arg("-o")
            .arg(&exe)
            .output()
            .expect("run gcc");
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let out = std::process::Command::new(&exe).output().expect("run it");
        let _ = std::fs::remove_dir_all(&dir);
        String::from_utf8(out.stdout)
            .expect("text")
            .lines()
            .map(|l| {
                let (name, value) = l.split_once(' ').expect("name value");
                (name.to_owned(), value.parse().expect("a number"))
            })
            .collect()
    }

    const LAYOUT_C: &str = r#"
#include <stdio.h>
#include <stddef.h>
#include <rcl/rcl.h>
#include <rcl/wait.h>
#define S(t) printf("%s %zu\n", #t, sizeof(t))
#define O(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f))
#define C(c) printf("%s %d\n", #c, (int)(c))
int main(void) {
  S(rcl_context_t); S(rcl_init_options_t); S(rcl_node_t); S(rcl_node_options_t);
  S(rcl_publisher_t); S(rcl_publisher_options_t); S(rcl_subscription_t);
  S(rcl_subscription_options_t); S(rmw_message_info_t); S(rcl_wait_set_t);
  O(rcl_wait_set_t, subscriptions); O(rcl_wait_set_t, size_of_subscriptions);
  O(rcl_publisher_options_t, qos); O(rcl_subscription_options_t, qos);
  S(rmw_qos_profile_t); O(rmw_qos_profile_t, history); O(rmw_qos_profile_t, depth);
  O(rmw_qos_profile_t, reliability); O(rmw_qos_profile_t, durability);
  O(rmw_qos_profile_t, deadline); O(rmw_qos_profile_t, lifespan);
  O(rmw_qos_profile_t, liveliness); O(rmw_qos_profile_t, liveliness_lease_duration);
  O(rmw_qos_profile_t, avoid_ros_namespace_conventions);
  S(rcl_allocator_t); S(rcl_serialized_message_t); O(rcl_serialized_message_t, buffer_length);
  O(rcl_serialized_message_t, buffer_capacity); O(rcl_serialized_message_t, allocator);
  S(rcutils_error_string_t); S(rcl_ret_t);
  C(RMW_QOS_POLICY_HISTORY_KEEP_LAST); C(RMW_QOS_POLICY_RELIABILITY_RELIABLE);
  C(RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT); C(RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL);
  C(RMW_QOS_POLICY_DURABILITY_VOLATILE); C(RCL_RET_OK); C(RCL_RET_TIMEOUT);
  C(RCL_RET_SUBSCRIPTION_TAKE_FAILED);
  return 0;
}
"#;

    #[test]
    fn the_structures_and_constants_are_those_of_rcls_headers() {
        let c = from_headers();
        let opaque = [
            "rcl_context_t",
            "rcl_init_options_t",
            "rcl_node_t",
            "rcl_node_options_t",
            "rcl_publisher_t",
            "rcl_publisher_options_t",
            "rcl_subscription_t",
            "rcl_subscription_options_t",
            "rmw_message_info_t",
            "rcl_wait_set_t",
        ];
        for name in opaque {
            assert!(c[name] <= size_of::<Opaque>(), "{name}: {} bytes", c[name]);
        }
        assert_eq!(c["rcl_wait_set_t.subscriptions"], 0);
        assert_eq!(
            c["rcl_wait_set_t.size_of_subscriptions"],
            size_of::<usize>()
        );
        assert_eq!(c["rcl_publisher_options_t.qos"], 0);
        assert_eq!(c["rcl_subscription_options_t.qos"], 0);
        assert_eq!(c["rmw_qos_profile_t"], size_of::<QosProfile>());
        for (field, offset) in [
            ("history", offset_of!(QosProfile, history)),
            ("depth", offset_of!(QosProfile, depth)),
            ("reliability", offset_of!(QosProfile, reliability)),
            ("durability", offset_of!(QosProfile, durability)),
            ("deadline", offset_of!(QosProfile, deadline)),
            ("lifespan", offset_of!(QosProfile, lifespan)),
            ("liveliness", offset_of!(QosProfile, liveliness)),
            (
                "liveliness_lease_duration",
                offset_of!(QosProfile, liveliness_lease_duration),
            ),
            (
                "avoid_ros_namespace_conventions",
                offset_of!(QosProfile, avoid_ros_namespace_conventions),
            ),
        ] {
            assert_eq!(c[&format!("rmw_qos_profile_t.{field}")], offset, "{field}");
        }
        assert_eq!(c["rcl_allocator_t"], size_of::<Allocator>());
        assert_eq!(
            c["rcl_serialized_message_t"],
            size_of::<SerializedMessage>()
        );
        assert_eq!(
            c["rcl_serialized_message_t.buffer_length"],
            offset_of!(SerializedMessage, buffer_length)
        );
        assert_eq!(
            c["rcl_serialized_message_t.buffer_capacity"],
            offset_of!(SerializedMessage, buffer_capacity)
        );
        assert_eq!(
            c["rcl_serialized_message_t.allocator"],
            offset_of!(SerializedMessage, allocator)
        );
        assert_eq!(c["rcutils_error_string_t"], size_of::<ErrorString>());
        assert_eq!(c["rcl_ret_t"], size_of::<Ret>());
        let constants = [
            (
                "RMW_QOS_POLICY_HISTORY_KEEP_LAST",
                HISTORY_KEEP_LAST as usize,
            ),
            (
                "RMW_QOS_POLICY_RELIABILITY_RELIABLE",
                RELIABILITY_RELIABLE as usize,
            ),
            (
                "RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT",
                RELIABILITY_BEST_EFFORT as usize,
            ),
            (
                "RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL",
                DURABILITY_TRANSIENT_LOCAL as usize,
            ),
            (
                "RMW_QOS_POLICY_DURABILITY_VOLATILE",
                DURABILITY_VOLATILE as usize,
            ),
            ("RCL_RET_OK", RET_OK as usize),
            ("RCL_RET_TIMEOUT", RET_TIMEOUT as usize),
            ("RCL_RET_SUBSCRIPTION_TAKE_FAILED", RET_TAKE_FAILED as usize),
        ];
        for (name, value) in constants {
            assert_eq!(c[name], value, "{name}");
        }
    }
}
