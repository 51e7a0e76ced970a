//! The library's integration tests in one binary (linking one per file
//! dominated the build): each file a module, `common` once.

mod common;

mod bag_damage;
mod bag_roundtrip;
mod colorizer;
mod damage_reading;
mod db3_damage;
mod db3_roundtrip;
mod errors;
mod frame_reader;
mod interop_bag;
mod interop_record;
mod layers;
mod msg_md5;
mod playback_device;
mod recorder;
mod round_trips;
mod synthetic_device;
