//! A node of its own rcl context, its publishers and subscriptions of
//! serialized messages, and a wait set over subscriptions.

use std::ffi::c_void;
use std::ptr;
use std::sync::Arc;
use std::time::Duration;

use crate::api::{self, Api, Opaque, QosProfile, SerializedMessage};
use crate::{Qos, Result};

/// What the node's entities share: rcl, the context and the node, which
/// are finished when the last entity is dropped.
struct Shared {
    api: Api,
    init_options: Box<Opaque>,
    context: Box<Opaque>,
    node: Box<Opaque>,
}

// SAFETY: rcl's context and node may be used from any thread; rcl
// serializes what it must (the graph, the RMW's own locks), and this crate
// never calls into one entity from two threads at once (`&mut` or a single
// owner per publisher, subscription and wait set).
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: each was initialized in `Node::new` and is finished once,
        // in the reverse order; every entity of the node is gone.
        unsafe {
            let f = &self.api.f;
            (f.rcl_node_fini)(self.node.ptr());
            (f.rcl_shutdown)(self.context.ptr());
            (f.rcl_context_fini)(self.context.ptr());
            (f.rcl_init_options_fini)(self.init_options.ptr());
            (f.rcutils_reset_error)();
        }
    }
}

/// A ROS 2 node, in an rcl context of its own (the domain is
/// `ROS_DOMAIN_ID`'s, discovery `ROS_AUTOMATIC_DISCOVERY_RANGE`'s, as
/// for any ROS 2 node).
#[derive(Clone)]
pub struct Node {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("rcl", &self.shared.api.path)
            .finish()
    }
}

impl Node {
    /// Load ROS 2, initialize a context and make node `name` in
    /// `namespace` (`/` for the root).
    pub fn new(name: &str, namespace: &str) -> Result<Node> {
        let api = Api::load()?;
        let c_name = api::c_string("node name", name)?;
        let c_namespace = api::c_string("namespace", namespace)?;
        let mut init_options = Opaque::zeroed();
        let mut context = Opaque::zeroed();
        let mut node = Opaque::zeroed();
        // SAFETY: rcl's calls in the order its documentation gives, on
        // zeroed structures at stable addresses; each failure is checked
        // before the next call, and what was initialized is finished.
        unsafe {
            let f = &api.f;
            let ret = (f.rcl_init_options_init)(init_options.ptr(), api.allocator());
            api.check(ret, || "initializing the init options".into())?;
            let ret = (f.rcl_init)(0, ptr::null(), init_options.ptr(), context.ptr());
            if let Err(e) = api.check(ret, || "initializing the context".into()) {
                (f.rcl_init_options_fini)(init_options.ptr());
                return Err(e);
            }
            let mut options = (f.rcl_node_get_default_options)();
            let ret = (f.rcl_node_init)(
                node.ptr(),
                c_name.as_ptr(),
                c_namespace.as_ptr(),
                context.ptr(),
                options.ptr(),
            );
            if let Err(e) = api.check(ret, || format!("making node {name} in {namespace}")) {
                (f.rcl_shutdown)(context.ptr());
                (f.rcl_context_fini)(context.ptr());
                (f.rcl_init_options_fini)(init_options.ptr());
                return Err(e);
            }
        }
        Ok(Node {
            shared: Arc::new(Shared {
                api,
                init_options,
                context,
                node,
            }),
        })
    }

    /// A publisher of `type_name` messages (`sensor_msgs/msg/Image`) on
    /// `topic`.
    pub fn publisher(&self, topic: &str, type_name: &str, qos: Qos) -> Result<Publisher> {
        let api = &self.shared.api;
        let type_support = api.type_support(type_name)?;
        let c_topic = api::c_string("topic", topic)?;
        let mut handle = Opaque::zeroed();
        // SAFETY: the options are rcl's defaults with the QoS (their first
        // field) set; the publisher is zeroed, at a stable address.
        unsafe {
            let mut options = (api.f.rcl_publisher_get_default_options)();
            set_qos(&mut options, qos);
            let ret = (api.f.rcl_publisher_init)(
                handle.ptr(),
                self.node_ptr(),
                type_support,
                c_topic.as_ptr(),
                options.ptr(),
            );
            api.check(ret, || format!("publishing {topic} ({type_name})"))?;
        }
        Ok(Publisher {
            shared: self.shared.clone(),
            handle,
            topic: topic.to_owned(),
        })
    }

    /// A subscription to `type_name` messages on `topic`.
    pub fn subscription(&self, topic: &str, type_name: &str, qos: Qos) -> Result<Subscription> {
        let api = &self.shared.api;
        let type_support = api.type_support(type_name)?;
        let c_topic = api::c_string("topic", topic)?;
        let mut handle = Opaque::zeroed();
        // SAFETY: as for the publisher.
        unsafe {
            let mut options = (api.f.rcl_subscription_get_default_options)();
            set_qos(&mut options, qos);
            let ret = (api.f.rcl_subscription_init)(
                handle.ptr(),
                self.node_ptr(),
                type_support,
                c_topic.as_ptr(),
                options.ptr(),
            );
            api.check(ret, || format!("subscribing to {topic} ({type_name})"))?;
        }
        Ok(Subscription {
            shared: self.shared.clone(),
            handle,
            topic: topic.to_owned(),
        })
    }

    fn node_ptr(&self) -> *const c_void {
        self.shared.node.0.as_ptr().cast()
    }
}

/// Write `qos` into rcl publisher or subscription options, whose first
/// field is the `rmw_qos_profile_t`.
fn set_qos(options: &mut Opaque, qos: Qos) {
    // SAFETY: the options start with an `rmw_qos_profile_t` (rcl's
    // headers since Foxy), and `Opaque` is aligned for it.
    let profile = unsafe { &mut *options.ptr().cast::<QosProfile>() };
    profile.history = api::HISTORY_KEEP_LAST;
    profile.depth = qos.depth;
    profile.reliability = if qos.reliable {
        api::RELIABILITY_RELIABLE
    } else {
        api::RELIABILITY_BEST_EFFORT
    };
    profile.durability = if qos.transient_local {
        api::DURABILITY_TRANSIENT_LOCAL
    } else {
        api::DURABILITY_VOLATILE
    };
}

/// A publisher of serialized messages.
pub struct Publisher {
    shared: Arc<Shared>,
    handle: Box<Opaque>,
    topic: String,
}

// SAFETY: a publisher is used by its one owner at a time; rcl allows
// publishing from any thread.
unsafe impl Send for Publisher {}

impl std::fmt::Debug for Publisher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Publisher")
            .field("topic", &self.topic)
            .finish()
    }
}

impl Publisher {
    /// Publish one message: its CDR bytes, encapsulation header first
    /// (what rosbag2 stores).
    pub fn publish(&self, cdr: &[u8]) -> Result<()> {
        let api = &self.shared.api;
        let message = SerializedMessage {
            buffer: cdr.as_ptr().cast_mut(),
            buffer_length: cdr.len(),
            buffer_capacity: cdr.len(),
            allocator: api.allocator(),
        };
        // SAFETY: the message borrows `cdr`, which rcl only reads during
        // the call.
        let ret = unsafe {
            (api.f.rcl_publish_serialized_message)(
                self.handle.0.as_ptr().cast(),
                &message,
                ptr::null_mut(),
            )
        };
        api.check(ret, || format!("publishing on {}", self.topic))
    }

    /// How many subscriptions have matched this publisher.
    pub fn subscription_count(&self) -> Result<usize> {
        let api = &self.shared.api;
        let mut count = 0;
        // SAFETY: an initialized publisher and a place for the count.
        let ret = unsafe {
            (api.f.rcl_publisher_get_subscription_count)(self.handle.0.as_ptr().cast(), &mut count)
        };
        api.check(ret, || {
            format!("counting the subscribers of {}", self.topic)
        })?;
        Ok(count)
    }

    /// Wait until every subscriber has acknowledged every message published
    /// (reliable subscribers), at most `timeout`; `false` when it passed
    /// first. A publisher destroyed before then loses its last messages.
    pub fn wait_for_all_acked(&self, timeout: Duration) -> Result<bool> {
        let api = &self.shared.api;
        let nanos = i64::try_from(timeout.as_nanos()).unwrap_or(i64::MAX);
        // SAFETY: an initialized publisher; rcl waits at most `nanos`.
        let ret = unsafe {
            (api.f.rcl_publisher_wait_for_all_acked)(self.handle.0.as_ptr().cast(), nanos)
        };
        if ret == api::RET_TIMEOUT {
            return Ok(false);
        }
        api.check(ret, || {
            format!(
                "waiting for the subscribers of {} to acknowledge",
                self.topic
            )
        })?;
        Ok(true)
    }

    /// The topic.
    pub fn topic(&self) -> &str {
        &self.topic
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        // SAFETY: initialized in `Node::publisher`, finished once.
        unsafe {
            (self.shared.api.f.rcl_publisher_fini)(self.handle.ptr(), self.shared.node_mut_ptr());
        }
    }
}

impl Shared {
    fn node_mut_ptr(&self) -> *mut c_void {
        self.node.0.as_ptr().cast_mut().cast()
    }
}

/// A subscription to serialized messages.
pub struct Subscription {
    shared: Arc<Shared>,
    handle: Box<Opaque>,
    topic: String,
}

// SAFETY: as for `Publisher`.
unsafe impl Send for Subscription {}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("topic", &self.topic)
            .finish()
    }
}

impl Subscription {
    /// Take the next message waiting (its CDR bytes, encapsulation
    /// header first), `None` when none is.
    pub fn take(&self) -> Result<Option<Vec<u8>>> {
        let api = &self.shared.api;
        let allocator = api.allocator();
        let mut message = SerializedMessage {
            buffer: ptr::null_mut(),
            buffer_length: 0,
            buffer_capacity: 0,
            allocator,
        };
        let mut info = Opaque::zeroed();
        // SAFETY: the message is initialized by rcutils with its allocator
        // (the RMW grows it with the same), copied out, and finished.
        unsafe {
            let ret = (api.f.rcutils_uint8_array_init)(&mut message, 0, &allocator);
            api.check(ret, || "allocating a message".into())?;
            let ret = (api.f.rcl_take_serialized_message)(
                self.handle.0.as_ptr().cast(),
                &mut message,
                info.ptr(),
                ptr::null_mut(),
            );
            let taken = match ret {
                api::RET_OK if !message.buffer.is_null() => Ok(Some(
                    std::slice::from_raw_parts(message.buffer, message.buffer_length).to_vec(),
                )),
                api::RET_OK => Ok(Some(Vec::new())),
                api::RET_TAKE_FAILED => {
                    (api.f.rcutils_reset_error)();
                    Ok(None)
                }
                ret => Err(api
                    .check(ret, || format!("taking a message of {}", self.topic))
                    .unwrap_err()),
            };
            (api.f.rcutils_uint8_array_fini)(&mut message);
            taken
        }
    }

    /// How many publishers have matched this subscription.
    pub fn publisher_count(&self) -> Result<usize> {
        let api = &self.shared.api;
        let mut count = 0;
        // SAFETY: an initialized subscription and a place for the count.
        let ret = unsafe {
            (api.f.rcl_subscription_get_publisher_count)(self.handle.0.as_ptr().cast(), &mut count)
        };
        api.check(ret, || format!("counting the publishers of {}", self.topic))?;
        Ok(count)
    }

    /// The topic.
    pub fn topic(&self) -> &str {
        &self.topic
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // SAFETY: initialized in `Node::subscription`, finished once.
        unsafe {
            (self.shared.api.f.rcl_subscription_fini)(
                self.handle.ptr(),
                self.shared.node_mut_ptr(),
            );
        }
    }
}

/// A wait set over a node's subscriptions.
pub struct WaitSet {
    shared: Arc<Shared>,
    handle: Box<Opaque>,
    size: usize,
}

// SAFETY: used by its one owner at a time.
unsafe impl Send for WaitSet {}

impl std::fmt::Debug for WaitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WaitSet").field("size", &self.size).finish()
    }
}

impl WaitSet {
    /// A wait set for up to `size` subscriptions of `node`.
    pub fn new(node: &Node, size: usize) -> Result<WaitSet> {
        let shared = node.shared.clone();
        let mut handle = Opaque::zeroed();
        let api = &shared.api;
        // SAFETY: a zeroed wait set at a stable address, the node's
        // initialized context.
        let ret = unsafe {
            (api.f.rcl_wait_set_init)(
                handle.ptr(),
                size,
                0,
                0,
                0,
                0,
                0,
                shared.context.0.as_ptr().cast_mut().cast(),
                api.allocator(),
            )
        };
        api.check(ret, || "making a wait set".into())?;
        Ok(WaitSet {
            shared,
            handle,
            size,
        })
    }

    /// Wait up to `timeout` for messages on `subscriptions` (at most the
    /// wait set's size, all of its node); the indices of those with one.
    pub fn wait(
        &mut self,
        subscriptions: &[&Subscription],
        timeout: Duration,
    ) -> Result<Vec<usize>> {
        let api = &self.shared.api;
        let subscriptions = &subscriptions[..subscriptions.len().min(self.size)];
        // SAFETY: the wait set was initialized for `size` subscriptions;
        // its first fields are the array of subscription pointers and its
        // length (rcl's headers), which rcl_wait leaves non-null for the
        // ready ones.
        unsafe {
            let ret = (api.f.rcl_wait_set_clear)(self.handle.ptr());
            api.check(ret, || "clearing the wait set".into())?;
            for s in subscriptions {
                let ret = (api.f.rcl_wait_set_add_subscription)(
                    self.handle.ptr(),
                    s.handle.0.as_ptr().cast(),
                    ptr::null_mut(),
                );
                api.check(ret, || format!("waiting on {}", s.topic))?;
            }
            let nanos = i64::try_from(timeout.as_nanos()).unwrap_or(i64::MAX);
            let ret = (api.f.rcl_wait)(self.handle.ptr(), nanos);
            if ret == api::RET_TIMEOUT {
                (api.f.rcutils_reset_error)();
                return Ok(Vec::new());
            }
            api.check(ret, || "waiting for messages".into())?;
            let array = *self.handle.ptr().cast::<*const *const c_void>();
            Ok((0..subscriptions.len())
                .filter(|&i| !(*array.add(i)).is_null())
                .collect())
        }
    }
}

impl Drop for WaitSet {
    fn drop(&mut self) {
        // SAFETY: initialized in `WaitSet::new`, finished once.
        unsafe {
            (self.shared.api.f.rcl_wait_set_fini)(self.handle.ptr());
        }
    }
}
