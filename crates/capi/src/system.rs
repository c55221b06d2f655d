//! See lib.rs for what this file holds.
