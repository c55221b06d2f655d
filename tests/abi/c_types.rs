//! The C spelling of a Rust type, so the C probe can check that a Rust field or typedef has
//! exactly the header's type (signedness, constness, function signatures), not just its size.
//! Every spelling is built from `__typeof__(..)` pieces, which GCC and Clang accept as type
//! names, so pointers to arrays and to functions compose without C declarator syntax.

use core::ffi::c_void;

pub trait CType {
    fn c() -> String;
}

macro_rules! scalar {
    ($($t:ty => $c:literal),* $(,)?) => {$(
        impl CType for $t {
            fn c() -> String {
                $c.into()
            }
        }
    )*};
}

// `c_char` is `i8` on x86-64 and the headers use `char` for text and never `int8_t`.
scalar! {
    u8 => "uint8_t", u16 => "uint16_t", u32 => "uint32_t", u64 => "uint64_t",
    i8 => "char", i16 => "int16_t", i32 => "int32_t", i64 => "int64_t",
    usize => "size_t", isize => "intptr_t", bool => "_Bool", f32 => "float", f64 => "double",
    c_void => "void", () => "void",
}

impl<T: CType> CType for *const T {
    fn c() -> String {
        format!("__typeof__({}) const *", T::c())
    }
}

impl<T: CType> CType for *mut T {
    fn c() -> String {
        format!("__typeof__({}) *", T::c())
    }
}

impl<T: CType, const N: usize> CType for [T; N] {
    fn c() -> String {
        format!("__typeof__({})[{N}]", T::c())
    }
}

macro_rules! fn_ptr {
    ($($a:ident),*) => {
        impl<R: CType $(, $a: CType)*> CType for Option<unsafe extern "C" fn($($a),*) -> R> {
            fn c() -> String {
                let args: Vec<String> = vec![$(format!("__typeof__({})", $a::c())),*];
                let args = if args.is_empty() { "void".to_string() } else { args.join(", ") };
                format!("__typeof__({}) (*)({args})", R::c())
            }
        }
    };
}

fn_ptr!();
fn_ptr!(A);
fn_ptr!(A, B);
fn_ptr!(A, B, C);
fn_ptr!(A, B, C, D);
fn_ptr!(A, B, C, D, E);
fn_ptr!(A, B, C, D, E, F);
fn_ptr!(A, B, C, D, E, F, G);
fn_ptr!(A, B, C, D, E, F, G, H);

/// The C spelling of the type of the field a closure projects to (never called).
pub fn of_field<S, F: CType>(_: fn(&S) -> &F) -> String {
    F::c()
}
