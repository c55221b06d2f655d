//! Kernel dispatch packets → the software GPU. (Owned by the GPU work.)
