//! The board sides the engine supports: a leaf, so that both the shapes
//! (`geometry`) and the errors that name the limits (`error`) read them from
//! one place without importing each other.

/// Smallest supported board side.
pub const MIN_SIZE: u8 = 3;
/// Largest supported board side (its 64 cells just fit one `u64`).
pub const MAX_SIZE: u8 = 8;
