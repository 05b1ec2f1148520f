//! Lines of a stream, each at most a cap long: a file of one endless line
//! costs the cap, not the file.

use std::io::{self, BufRead, Read};

use thiserror::Error;

use crate::text::thousands;

/// The error a [`LineCap`] reads when a line runs past its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a line longer than {} bytes, the most one may take", thousands(*.cap as u64))]
pub struct LineTooLong {
    /// The cap, in bytes, line ending included.
    pub cap: usize,
}

/// A reader of lines (`read_until`, `read_line`, `lines`) that fails with
/// [`LineTooLong`] once a line runs past `cap` bytes, having held no more
/// than the cap and one buffer of it.
#[derive(Debug)]
pub struct LineCap<R> {
    inner: R,
    cap: usize,
    /// Bytes of the line at hand consumed so far.
    run: usize,
    overflowed: bool,
}

impl<R: BufRead> LineCap<R> {
    /// Lines of `inner`, each at most `cap` bytes with its line ending.
    pub fn new(inner: R, cap: usize) -> LineCap<R> {
        LineCap {
            inner,
            cap,
            run: 0,
            overflowed: false,
        }
    }

    /// True once a line ran past the cap.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }
}

impl<R: BufRead> Read for LineCap<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for LineCap<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.run > self.cap {
            self.overflowed = true;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                LineTooLong { cap: self.cap },
            ));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        // The inner buffer still holds what fill_buf gave: look at it again.
        let taken = self
            .inner
            .fill_buf()
            .map_or(&[][..], |buf| &buf[..amount.min(buf.len())]);
        self.run = match taken.iter().rposition(|&b| b == b'\n') {
            Some(at) => amount - at - 1,
            None => self.run + amount,
        };
        self.inner.consume(amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_within_the_cap_are_read_and_a_longer_one_stops_the_reading() {
        let text = format!("short\n{}\nnever\n", "x".repeat(100));
        let mut lines = LineCap::new(io::BufReader::with_capacity(8, text.as_bytes()), 20);
        let mut line = Vec::new();
        lines.read_until(b'\n', &mut line).unwrap();
        assert_eq!(line, b"short\n");
        line.clear();
        let error = lines.read_until(b'\n', &mut line).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(lines.overflowed());
        assert!(line.len() <= 20 + 8, "held {} bytes", line.len());
        assert_eq!(
            error.to_string(),
            "a line longer than 20 bytes, the most one may take"
        );
    }

    #[test]
    fn many_short_lines_never_add_up() {
        let text = "ab\n".repeat(1000);
        let lines = LineCap::new(text.as_bytes(), 3);
        assert_eq!(lines.lines().count(), 1000);
    }
}
