//! A fixed-capacity ring buffer.

use std::fmt;

/// A ring buffer that overwrites its oldest element when full.
#[derive(Debug, Clone)]
pub struct Ring<T> {
    items: Vec<Option<T>>,
    head: usize,
    len: usize,
}

impl<T: Clone> Ring<T> {
    /// An empty ring holding at most `capacity` elements.
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "capacity must be positive");
        Ring { items: vec![None; capacity], head: 0, len: 0 }
    }

    /// Push a value; returns the one it overwrote, if any.
    pub fn push(&mut self, value: T) -> Option<T> {
        let cap = self.items.len();
        let slot = (self.head + self.len) % cap;
        if self.len == cap {
            let old = self.items[slot].replace(value);
            self.head = (self.head + 1) % cap;
            old
        } else {
            self.items[slot] = Some(value);
            self.len += 1;
            None
        }
    }

    /// Remove and return the oldest value.
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let value = self.items[self.head].take();
        self.head = (self.head + 1) % self.items.len();
        self.len -= 1;
        value
    }

    pub fn len(&self) -> usize {
        self.len
    }
}

impl<T: fmt::Display + Clone> fmt::Display for Ring<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for i in 0..self.len {
            if let Some(v) = &self.items[(self.head + i) % self.items.len()] {
                write!(f, "{}{}", if i > 0 { ", " } else { "" }, v)?;
            }
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overwrites_oldest() {
        let mut r = Ring::new(2);
        r.push(1);
        r.push(2);
        assert_eq!(r.push(3), Some(1));
        assert_eq!(r.pop(), Some(2));
    }
}
