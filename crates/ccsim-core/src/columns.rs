//! Column tables declared once: [`column_table!`](crate::column_table) defines a struct of `Vec` columns and,
//! from the same declaration, its column list (name, NumPy/Arrow dtype, doc comment) and the
//! little-endian bytes of every column. The Python bindings export the list as the Parquet
//! schema of the time series, and the docs' column tables are generated from it, so a column
//! is named, typed and documented in one place.

/// One column: its name, its NumPy dtype string (`<f8`, `<u8`, `<u4`, `u1`, `?`) and its
/// doc comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnDoc {
    pub name: &'static str,
    pub dtype: &'static str,
    pub doc: &'static str,
}

/// A value type a column may hold.
pub trait ColumnType: Copy {
    /// NumPy dtype string of the little-endian encoding.
    const DTYPE: &'static str;
    fn put_le(self, out: &mut Vec<u8>);
}

macro_rules! column_type {
    ($($t:ty => $dtype:literal),*) => {$(
        impl ColumnType for $t {
            const DTYPE: &'static str = $dtype;
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
column_type!(f64 => "<f8", u64 => "<u8", u32 => "<u4", u8 => "u1");

impl ColumnType for bool {
    const DTYPE: &'static str = "?";
    fn put_le(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
}

/// The little-endian bytes of a column.
pub fn le_bytes<T: ColumnType>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(std::mem::size_of_val(v));
    for &x in v {
        x.put_le(&mut out);
    }
    out
}

/// Declares a struct of `Vec` columns, each with a doc comment, and gives it `COLUMNS` (the
/// column list), `to_le_columns()` (name, dtype, bytes per column) and `rows()`.
#[macro_export]
macro_rules! column_table {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])+ pub $col:ident: Vec<$ty:ty>, )+
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])+ pub $col: Vec<$ty>, )+
        }

        impl $name {
            /// Every column, in order: name, dtype and doc comment.
            pub const COLUMNS: &'static [$crate::columns::ColumnDoc] = &[
                $( $crate::columns::ColumnDoc {
                    name: stringify!($col),
                    dtype: <$ty as $crate::columns::ColumnType>::DTYPE,
                    doc: concat!($($doc),+),
                }, )+
            ];

            /// (name, dtype, little-endian bytes) of every column, in order.
            pub fn to_le_columns(&self) -> Vec<(&'static str, &'static str, Vec<u8>)> {
                vec![ $( (
                    stringify!($col),
                    <$ty as $crate::columns::ColumnType>::DTYPE,
                    $crate::columns::le_bytes(&self.$col),
                ), )+ ]
            }

            /// Number of rows (the length of the first column).
            pub fn rows(&self) -> usize {
                [$( self.$col.len() ),+][0]
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::column_table! {
        #[derive(Default)]
        pub struct Sample {
            /// Time (s).
            pub t_s: Vec<f64>,
            /// A flag.
            pub on: Vec<bool>,
        }
    }

    #[test]
    fn columns_are_declared_once_with_dtypes_docs_and_bytes() {
        assert_eq!(Sample::COLUMNS.len(), 2);
        assert_eq!(Sample::COLUMNS[0].name, "t_s");
        assert_eq!(Sample::COLUMNS[0].dtype, "<f8");
        assert_eq!(Sample::COLUMNS[1].doc.trim(), "A flag.");
        let s = Sample {
            t_s: vec![1.5],
            on: vec![true],
        };
        let cols = s.to_le_columns();
        assert_eq!(cols[0].2, 1.5f64.to_le_bytes().to_vec());
        assert_eq!(cols[1], ("on", "?", vec![1]));
        assert_eq!(s.rows(), 1);
    }
}
