//! Hot-plug: librealsense tells a context's devices-changed callback which
//! devices went away; the serial numbers of the devices rsbag uses that
//! are among them go out on a channel, so that no one waits inside
//! librealsense's callback.

use std::ffi::c_void;
use std::sync::{Arc, Weak};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;

use crate::api::{Api, Handle};
use crate::device::Shared;
use crate::list::Owned;
use crate::Result;

/// What the devices-changed callback needs.
///
/// It is never freed: librealsense may call the callback until its last
/// device is gone, which can be after the context's handle is deleted (a
/// device keeps its context alive). It holds no device (only weak
/// references), so what stays is a few bytes and the library itself, which
/// must stay loaded while librealsense's threads run anyway.
pub(crate) struct Watch {
    api: Arc<Api>,
    /// The devices in use, by serial number.
    devices: Mutex<Vec<(String, Weak<Shared>)>>,
    removed: Sender<String>,
}

impl Watch {
    /// Register the devices-changed callback on `context`; the returned
    /// receiver hears the serial numbers of watched devices removed.
    pub fn install(api: &Arc<Api>, context: Handle) -> Result<(&'static Watch, Receiver<String>)> {
        let (removed, receiver) = crossbeam_channel::unbounded();
        let watch: &'static Watch = Box::leak(Box::new(Watch {
            api: api.clone(),
            devices: Mutex::new(Vec::new()),
            removed,
        }));
        let user = watch as *const Watch as *mut c_void;
        let f = &api.f;
        // SAFETY: a live context; `user` lives for the rest of the process.
        api.call(|e| unsafe { (f.rs2_set_devices_changed_callback)(context, on_change, user, e) })?;
        Ok((watch, receiver))
    }

    /// Tell of `device`'s removal, as `serial`.
    pub fn add(&self, serial: &str, device: &Arc<Shared>) {
        self.devices
            .lock()
            .push((serial.to_owned(), Arc::downgrade(device)));
    }
}

/// librealsense's devices-changed callback: the watched devices in
/// `removed` are reported (once each) and dropped from the watch; nothing
/// here waits (the channel is unbounded).
unsafe extern "C" fn on_change(removed: Handle, added: Handle, user: *mut c_void) {
    // SAFETY: `user` is the leaked `Watch`.
    let watch = &*(user as *const Watch);
    let f = &watch.api.f;
    // Ours to delete.
    let removed = Owned::new(removed, f.rs2_delete_device_list);
    drop(Owned::new(added, f.rs2_delete_device_list));
    if removed.raw().is_null() {
        return;
    }
    let mut gone = Vec::new();
    watch.devices.lock().retain(|(serial, device)| {
        let Some(device) = device.upgrade() else {
            return false;
        };
        let contained = watch
            .api
            .call(|e| unsafe { (f.rs2_device_list_contains)(removed.raw(), device.raw(), e) })
            .unwrap_or(0);
        if contained != 0 {
            gone.push(serial.clone());
        }
        contained == 0
    });
    for serial in gone {
        let _ = watch.removed.send(serial);
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("devices", &self.devices.lock().len())
            .finish()
    }
}
