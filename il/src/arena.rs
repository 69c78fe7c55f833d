//! Typed arenas: `Arena<T>` owns values, `Idx<T>` names one of them.
//!
//! Indices are `u32` and carry their element type, so a `StmtId` cannot be used where an
//! `ExprId` is expected. `il::verify` checks every index once; later passes index freely.

use std::fmt;
use std::marker::PhantomData;

/// A handle to a value stored in an [`Arena<T>`].
pub struct Idx<T> {
    raw: u32,
    _ty: PhantomData<fn() -> T>,
}

impl<T> Idx<T> {
    /// Builds an index from its raw position (used by side tables and tests).
    pub fn from_raw(raw: u32) -> Self {
        Idx {
            raw,
            _ty: PhantomData,
        }
    }
    /// The raw position in the arena.
    pub fn index(self) -> usize {
        self.raw as usize
    }
}

impl<T> Clone for Idx<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Idx<T> {}
impl<T> PartialEq for Idx<T> {
    fn eq(&self, o: &Self) -> bool {
        self.raw == o.raw
    }
}
impl<T> Eq for Idx<T> {}
impl<T> PartialOrd for Idx<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Idx<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.raw.cmp(&o.raw)
    }
}
impl<T> std::hash::Hash for Idx<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.raw.hash(h)
    }
}
impl<T> fmt::Debug for Idx<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = std::any::type_name::<T>()
            .rsplit("::")
            .next()
            .unwrap_or("?");
        write!(f, "{name}#{}", self.raw)
    }
}

/// Append-only storage addressed by [`Idx`].
///
/// The values live in chunks of at most [`CHUNK`] values, never moved once stored: a single
/// `Vec` doubled its capacity as it grew, so a unit of a million expressions held up to twice
/// its size in spare capacity and, while reallocating, three times its size (the old buffer
/// and the new one). Only the first chunk grows by doubling, so small arenas stay small.
#[derive(Clone)]
pub struct Arena<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

/// The number of values per chunk of an [`Arena`] (a power of two).
const CHUNK: usize = 1 << 12;

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.chunks.iter().flatten())
            .finish()
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// Stores `value` and returns its handle.
    pub fn alloc(&mut self, value: T) -> Idx<T> {
        let raw = u32::try_from(self.len).expect("arena overflow: more than 2^32 nodes");
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(value),
            Some(_) => {
                let mut c = Vec::with_capacity(CHUNK);
                c.push(value);
                self.chunks.push(c);
            }
            None => self.chunks.push(vec![value]),
        }
        self.len += 1;
        Idx::from_raw(raw)
    }
    /// Number of values stored.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether `id` names a value of this arena.
    pub fn contains(&self, id: Idx<T>) -> bool {
        id.index() < self.len
    }
    /// The values with their handles, in allocation order.
    pub fn iter(&self) -> impl Iterator<Item = (Idx<T>, &T)> {
        self.chunks
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, v)| (Idx::from_raw(i as u32), v))
    }
    /// The handles, in allocation order.
    pub fn ids(&self) -> impl Iterator<Item = Idx<T>> {
        (0..self.len as u32).map(Idx::from_raw)
    }
}

impl<T> std::ops::Index<Idx<T>> for Arena<T> {
    type Output = T;
    fn index(&self, id: Idx<T>) -> &T {
        let i = id.index();
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}
impl<T> std::ops::IndexMut<Idx<T>> for Arena<T> {
    fn index_mut(&mut self, id: Idx<T>) -> &mut T {
        let i = id.index();
        &mut self.chunks[i / CHUNK][i % CHUNK]
    }
}

#[derive(Clone, Debug)]
pub struct ArenaMap<K, V> {
    data: Vec<Option<V>>,
    _k: PhantomData<fn() -> K>,
}

impl<K, V> Default for ArenaMap<K, V> {
    fn default() -> Self {
        ArenaMap {
            data: Vec::new(),
            _k: PhantomData,
        }
    }
}

impl<K, V> ArenaMap<K, V> {
    /// Sets the value for `id`.
    pub fn insert(&mut self, id: Idx<K>, v: V) {
        let i = id.index();
        if self.data.len() <= i {
            self.data.resize_with(i + 1, || None);
        }
        self.data[i] = Some(v);
    }
    /// The value for `id`, if any.
    pub fn get(&self, id: Idx<K>) -> Option<&V> {
        self.data.get(id.index()).and_then(|v| v.as_ref())
    }
}
