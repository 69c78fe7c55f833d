//! un
