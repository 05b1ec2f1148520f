//! Enums that go by names, as a user types them: each variant and its name
//! are written once, in [`named!`], and the list of every variant, the
//! names, `Display` and `FromStr` follow from there.

use thiserror::Error;

use super::error::echo;

/// A name that is none of the names a kind of value goes by.
///
/// ```
/// use tictactoe_engine::{Level, UnknownName};
///
/// let error = "expert".parse::<Level>().unwrap_err();
/// assert_eq!(error.names, Level::NAMES);
/// assert_eq!(
///     error.to_string(),
///     r#""expert" is not a level: use random, easy, medium, hard or perfect"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{given:?} is not a {kind}: use {}", or_list(names))]
pub struct UnknownName {
    /// What the name should have named: `level`, ….
    pub kind: &'static str,
    /// The name given (a long one cut, as [`echo`] cuts it).
    pub given: String,
    /// Every name there is.
    pub names: &'static [&'static str],
}

impl UnknownName {
    /// The error for `given`, which is none of `names`.
    pub(crate) fn new(kind: &'static str, given: &str, names: &'static [&'static str]) -> Self {
        UnknownName {
            kind,
            given: echo(given).into_owned(),
            names,
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// An enum whose variants each go by a name: the enum as written (its
/// attributes and docs kept), with `ALL` (every variant in order),
/// `NAMES`, `name()`, `Display` (the name) and `FromStr` (the name back,
/// or an [`UnknownName`] calling the value a `$kind`). Adding a variant is
/// adding one line here; the compiler then asks for its meaning wherever
/// the enum is matched.
macro_rules! named {
    (
        $(#[$meta:meta])*
        pub enum $name:ident as $kind:literal {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $text:literal,
            )+
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $(
                $(#[$variant_meta])*
                $variant,
            )+
        }

        impl $name {
            /// Every one, in the order of [`Self::NAMES`].
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];

            /// The names, as the command line takes them and `Display` writes them.
            pub const NAMES: [&'static str; [$($text),+].len()] = [$($text),+];

            /// The name, as the command line takes it.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        /// The name.
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.pad(self.name())
            }
        }

        /// Reads the name (exactly as [`Self::NAMES`] spell it).
        impl ::std::str::FromStr for $name {
            type Err = $crate::names::UnknownName;

            fn from_str(text: &str) -> Result<$name, Self::Err> {
                $name::ALL
                    .into_iter()
                    .find(|value| value.name() == text)
                    .ok_or_else(|| $crate::names::UnknownName::new($kind, text, &$name::NAMES))
            }
        }
    };
}

pub(crate) use named;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Level, Scoring, solve::Technique};

    fn round_trip<T>(all: &[T], names: &[&str])
    where
        T: std::fmt::Display + std::str::FromStr<Err = UnknownName> + PartialEq + std::fmt::Debug,
    {
        assert_eq!(all.len(), names.len());
        for (value, name) in all.iter().zip(names) {
            assert_eq!(value.to_string(), *name);
            assert_eq!(name.parse::<T>().as_ref(), Ok(value));
        }
        assert!("".parse::<T>().is_err());
        assert!(names[0].to_uppercase().parse::<T>().is_err());
    }

    #[test]
    fn every_name_reads_back_as_its_value() {
        round_trip(&Level::ALL, &Level::NAMES);
        round_trip(&Scoring::ALL, &Scoring::NAMES);
        round_trip(&Technique::ALL, &Technique::NAMES);
        let error = "deep".parse::<Scoring>().unwrap_err().to_string();
        assert!(
            error.starts_with(r#""deep" is not a way of counting scores: use depth, plain"#)
                || error == r#""deep" is not a way of counting scores: use depth or plain"#,
            "{error}"
        );
        assert_eq!(or_list(&["a"]), "a");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }
}
