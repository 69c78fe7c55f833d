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
#[derive(Clone)]
pub struct Arena<T> {
    data: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { data: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.data.iter()).finish()
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// Stores `value` and returns its handle.
    pub fn alloc(&mut self, value: T) -> Idx<T> {
        let raw = u32::try_from(self.data.len()).expect("arena overflow: more than 2^32 nodes");
        self.data.push(value);
        Idx::from_raw(raw)
    }
    /// Number of stored values.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// True when `id` points into this arena.
    pub fn contains(&self, id: Idx<T>) -> bool {
        id.index() < self.data.len()
    }
    /// Handles and values in allocation order.
    pub fn iter(&self) -> impl Iterator<Item = (Idx<T>, &T)> {
        self.data
            .iter()
            .enumerate()
            .map(|(i, v)| (Idx::from_raw(i as u32), v))
    }
    /// All handles in allocation order.
    pub fn ids(&self) -> impl Iterator<Item = Idx<T>> {
        (0..self.data.len() as u32).map(Idx::from_raw)
    }
}

impl<T> std::ops::Index<Idx<T>> for Arena<T> {
    type Output = T;
    fn index(&self, id: Idx<T>) -> &T {
        &self.data[id.index()]
    }
}
impl<T> std::ops::IndexMut<Idx<T>> for Arena<T> {
    fn index_mut(&mut self, id: Idx<T>) -> &mut T {
        &mut self.data[id.index()]
    }
}

/// A side table keyed by the handles of one arena (spans, analysis facts).
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
