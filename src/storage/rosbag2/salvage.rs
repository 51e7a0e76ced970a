//! What a cut or damaged `.db3` still holds, read page by page where
//! SQLite gives up ("database disk image is malformed"), and written into
//! a new database with the same tables and indexes.
//!
//! A table's rows live in the leaf pages of its b-tree. The salvage walks
//! each table's tree from its root page, and then looks at every page no
//! walk reached: a leaf whose parent page was cut off is still whole. A row
//! is kept when its cell and every overflow page of its payload are in the
//! file; a row cut short is counted as lost, never written in part. The
//! layout read is SQLite's documented file format (`fileformat2.html`).

use std::collections::HashSet;
use std::path::Path;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql};

use crate::{Error, Result};

/// The page flag of a table b-tree's interior page.
const TABLE_INTERIOR: u8 = 0x05;
/// The page flag of a table b-tree's leaf page.
const TABLE_LEAF: u8 = 0x0d;
/// The deepest table b-tree walked (SQLite's own limit is 20 levels).
const MAX_DEPTH: usize = 64;

/// What [`salvage_db3`] recovered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SalvageReport {
    /// Each table's name and the rows written into it, in the order the
    /// file's schema lists the tables.
    pub tables: Vec<(String, u64)>,
    /// Rows whose cell was found but whose payload runs into pages that
    /// are not in the file (or are not what the row says).
    pub rows_cut: u64,
    /// Pages of the tables' trees that are not in the file, or are not
    /// b-tree pages: the rows under them were looked for among every
    /// other page of the file.
    pub pages_missing: u64,
}

/// Write every whole row of the `.db3` at `input` (cut off, or with
/// damaged pages) into a new database at `out`, created with the same
/// tables and indexes; `out` must not exist.
///
/// # Example
/// ```no_run
/// use rsbag::storage::rosbag2::salvage_db3;
/// # fn main() -> rsbag::Result<()> {
/// let report = salvage_db3("cut.db3".as_ref(), "recovered.db3".as_ref())?;
/// for (table, rows) in &report.tables {
///     println!("{table}: {rows} rows");
/// }
/// # Ok(()) }
/// ```
pub fn salvage_db3(input: &Path, out: &Path) -> Result<SalvageReport> {
    let no_header = || damaged("an empty file: nothing to salvage").in_file(input);
    let (bytes, _map) = crate::storage::file::map_file(input, no_header)?;
    let file = PageFile::new(&bytes).map_err(|e| e.in_file(input))?;
    let db = Connection::open(out).map_err(|e| database(e).in_file(out))?;
    let written = write_salvage(&file, &db).map_err(|e| e.in_file(out));
    if written.is_err() {
        drop(db);
        let _ = std::fs::remove_file(out);
    }
    written
}

/// The schema's tables, then their rows, then the indexes, in one
/// transaction.
fn write_salvage(file: &PageFile<'_>, db: &Connection) -> Result<SalvageReport> {
    let schema = file.schema()?;
    db.execute_batch(&format!(
        "PRAGMA page_size = {}; PRAGMA journal_mode = OFF; BEGIN",
        file.page_size
    ))
    .map_err(database)?;
    let mut tables = Vec::new();
    for entry in schema.iter().filter(|e| e.is_table()) {
        db.execute_batch(&entry.sql).map_err(database)?;
        tables.push(TableWriter::new(db, entry)?);
    }
    let mut report = SalvageReport::default();
    let mut reached = vec![false; file.page_count as usize + 1];
    reached[1] = true;
    for table in &mut tables {
        let mut leaves = Vec::new();
        report.pages_missing += file.walk(table.root, &mut reached, &mut leaves);
        for leaf in leaves {
            report.rows_cut += file.leaf_rows(leaf, |row| table.insert(row))?;
        }
    }
    for page in 2..=file.page_count {
        if reached[page as usize] || file.flag(page) != Some(TABLE_LEAF) {
            continue;
        }
        report.rows_cut += file.leaf_rows(page, |row| {
            let mut fits = tables.iter_mut().filter(|t| t.columns == row.values.len());
            match (fits.next(), fits.next()) {
                (Some(table), None) => table.insert(row),
                _ => Ok(()),
            }
        })?;
    }
    for entry in schema.iter().filter(|e| e.is_index()) {
        db.execute_batch(&entry.sql).map_err(database)?;
    }
    db.execute_batch("COMMIT").map_err(database)?;
    report.tables = tables.into_iter().map(|t| (t.name, t.written)).collect();
    Ok(report)
}

fn database(e: rusqlite::Error) -> Error {
    Error::Database(e.to_string())
}

fn damaged(what: impl Into<String>) -> Error {
    Error::Database(what.into())
}

/// The file's pages, as SQLite lays them out.
struct PageFile<'a> {
    bytes: &'a [u8],
    page_size: usize,
    /// Bytes of each page b-tree content may use (the page less its
    /// reserved bytes).
    usable: usize,
    /// Pages in the file, the last perhaps cut short.
    page_count: u32,
    /// Pages on the free list: their content is stale.
    free: HashSet<u32>,
}

impl<'a> PageFile<'a> {
    fn new(bytes: &'a [u8]) -> Result<PageFile<'a>> {
        let header = bytes
            .get(..100)
            .filter(|h| h.starts_with(b"SQLite format 3\0"))
            .ok_or_else(|| damaged("no SQLite header: nothing to salvage"))?;
        let page_size = match u16::from_be_bytes([header[16], header[17]]) {
            1 => 65536,
            n if n >= 512 && n.is_power_of_two() => usize::from(n),
            n => {
                return Err(damaged(format!(
                    "the header's page size {n} is not SQLite's"
                )))
            }
        };
        let usable = page_size - usize::from(header[20]);
        if usable < 480 {
            return Err(damaged("the header's reserved bytes leave pages too small"));
        }
        if be32(header, 56) > 1 {
            return Err(damaged("the text is not UTF-8 (as every .db3's is)"));
        }
        let page_count = u32::try_from(bytes.len().div_ceil(page_size)).unwrap_or(u32::MAX);
        let mut file = PageFile {
            bytes,
            page_size,
            usable,
            page_count,
            free: HashSet::new(),
        };
        file.free = file.free_pages(be32(header, 32), be32(header, 36));
        Ok(file)
    }

    /// What the file holds of page `n` (from 1): all of it, or the start
    /// of the page it was cut off in, whose cells there are still whole.
    fn page(&self, n: u32) -> Option<&'a [u8]> {
        if n == 0 || n > self.page_count {
            return None;
        }
        let start = (n as usize - 1) * self.page_size;
        let end = (start + self.page_size).min(self.bytes.len());
        self.bytes.get(start..end)
    }

    /// Where page `n`'s b-tree header starts (after the file header on
    /// page 1).
    fn header_at(n: u32) -> usize {
        if n == 1 {
            100
        } else {
            0
        }
    }

    /// Page `n`'s b-tree flag.
    fn flag(&self, n: u32) -> Option<u8> {
        self.page(n)?.get(Self::header_at(n)).copied()
    }

    /// The free list's pages, trunks and leaves, as far as the file has
    /// them.
    fn free_pages(&self, first_trunk: u32, count: u32) -> HashSet<u32> {
        let mut free = HashSet::new();
        let mut trunk = first_trunk;
        while trunk != 0 && free.len() < count as usize && free.insert(trunk) {
            let Some(page) = self.page(trunk) else { break };
            let leaves = (be32(page, 4) as usize).min((self.usable - 8) / 4);
            free.extend((0..leaves).map(|i| be32(page, 8 + 4 * i)));
            trunk = be32(page, 0);
        }
        free
    }

    /// Walk the table b-tree from `root`, marking pages `reached` and
    /// collecting its leaves; returns how many of its pages are missing
    /// (not in the file, free, or not table pages).
    fn walk(&self, root: u32, reached: &mut [bool], leaves: &mut Vec<u32>) -> u64 {
        let mut missing = 0;
        let mut stack = vec![(root, 0)];
        while let Some((n, depth)) = stack.pop() {
            let slot = reached.get_mut(n as usize);
            match slot {
                Some(seen) if !*seen && !self.free.contains(&n) && depth < MAX_DEPTH => {
                    *seen = true
                }
                Some(true) => continue,
                _ => {
                    missing += 1;
                    continue;
                }
            }
            match self.flag(n) {
                Some(TABLE_LEAF) => leaves.push(n),
                Some(TABLE_INTERIOR) => match self.children(n) {
                    Some(children) => {
                        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)))
                    }
                    None => missing += 1,
                },
                _ => missing += 1,
            }
        }
        missing
    }

    /// The offsets of page `n`'s cells, when its header and cell pointers
    /// are sound.
    fn cells(&self, n: u32) -> Option<(&'a [u8], Vec<usize>)> {
        let page = self.page(n)?;
        let at = Self::header_at(n);
        let header = if *page.get(at)? == TABLE_INTERIOR {
            12
        } else {
            8
        };
        let count = usize::from(be16(page.get(at + 3..at + 5)?, 0));
        let pointers = at + header;
        let cells_start = pointers + 2 * count;
        if cells_start > self.usable {
            return None;
        }
        let offsets = page
            .get(pointers..cells_start)?
            .chunks_exact(2)
            .map(|o| usize::from(be16(o, 0)))
            .map(|o| (cells_start..self.usable).contains(&o).then_some(o))
            .collect::<Option<Vec<usize>>>()?;
        Some((page, offsets))
    }

    /// An interior page's children: each cell's left child, then the
    /// right-most.
    fn children(&self, n: u32) -> Option<Vec<u32>> {
        let (page, cells) = self.cells(n)?;
        let at = Self::header_at(n);
        let mut children: Vec<u32> = cells
            .iter()
            .map(|&o| page.get(o..o + 4).map(|b| be32(b, 0)))
            .collect::<Option<_>>()?;
        children.push(be32(page, at + 8));
        Some(children)
    }

    /// Hand each whole row of leaf page `n` to `row`; returns how many
    /// rows were cut short (cells whose payload is not all in the file).
    /// A page whose cells cannot be found holds no rows.
    fn leaf_rows(&self, n: u32, mut row: impl FnMut(Row) -> Result<()>) -> Result<u64> {
        let Some((page, cells)) = self.cells(n) else {
            return Ok(0);
        };
        let mut cut = 0;
        for offset in cells {
            match self.cell(page, offset).and_then(|(rowid, payload)| {
                Some(Row {
                    rowid,
                    values: record(&payload)?,
                })
            }) {
                Some(r) => row(r)?,
                None => cut += 1,
            }
        }
        Ok(cut)
    }

    /// The row id and whole payload of the table leaf cell at `offset`.
    fn cell(&self, page: &[u8], offset: usize) -> Option<(i64, Vec<u8>)> {
        let (size, a) = varint(page.get(offset..)?)?;
        let (rowid, b) = varint(page.get(offset + a..)?)?;
        let size = usize::try_from(size)
            .ok()
            .filter(|&s| s <= self.bytes.len())?;
        let start = offset + a + b;
        let local = self.local_size(size);
        let mut payload = Vec::with_capacity(size);
        payload.extend_from_slice(page.get(start..start + local)?);
        let mut next = match local < size {
            true => be32(page.get(start + local..start + local + 4)?, 0),
            false => 0,
        };
        let mut hops = 0;
        while payload.len() < size {
            hops += 1;
            if hops > self.page_count || self.free.contains(&next) {
                return None;
            }
            let overflow = self.page(next)?;
            let take = (size - payload.len()).min(self.usable - 4);
            payload.extend_from_slice(overflow.get(4..4 + take)?);
            next = be32(overflow, 0);
        }
        Some((rowid as i64, payload))
    }

    /// How much of a table leaf cell's payload of `size` bytes is on its
    /// page (the rest is on overflow pages).
    fn local_size(&self, size: usize) -> usize {
        let most = self.usable - 35;
        if size <= most {
            return size;
        }
        let least = (self.usable - 12) * 32 / 255 - 23;
        let local = least + (size - least) % (self.usable - 4);
        if local <= most {
            local
        } else {
            least
        }
    }

    /// The schema table's entries (page 1's tree).
    fn schema(&self) -> Result<Vec<SchemaEntry>> {
        let mut leaves = Vec::new();
        let mut reached = vec![false; self.page_count as usize + 1];
        self.walk(1, &mut reached, &mut leaves);
        let mut entries = Vec::new();
        for leaf in leaves {
            self.leaf_rows(leaf, |row| {
                entries.extend(SchemaEntry::of(row));
                Ok(())
            })?;
        }
        if !entries.iter().any(SchemaEntry::is_table) {
            return Err(damaged(
                "its schema (page 1) lists no table: nothing to salvage",
            ));
        }
        Ok(entries)
    }
}

/// One row of a table: its id and its columns' values.
struct Row {
    rowid: i64,
    values: Vec<Value>,
}

/// A value of a record, as SQLite stores it.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Integer(v) => ValueRef::Integer(*v),
            Value::Real(v) => ValueRef::Real(*v),
            Value::Text(v) => ValueRef::Text(v),
            Value::Blob(v) => ValueRef::Blob(v),
        }))
    }
}

/// The values of a record (a header of serial types, then the body).
fn record(payload: &[u8]) -> Option<Vec<Value>> {
    let (header_size, mut at) = varint(payload)?;
    let header_size = usize::try_from(header_size).ok()?;
    let mut body = header_size;
    let mut values = Vec::new();
    while at < header_size {
        let (serial, used) = varint(payload.get(at..header_size)?)?;
        at += used;
        let size = match serial {
            0 | 8 | 9 => 0,
            1..=4 => serial as usize,
            5 => 6,
            6 | 7 => 8,
            10 | 11 => return None,
            n => usize::try_from((n - 12) / 2).ok()?,
        };
        let bytes = payload.get(body..body.checked_add(size)?)?;
        body += size;
        values.push(match serial {
            0 => Value::Null,
            1..=6 => Value::Integer(signed(bytes)),
            7 => Value::Real(f64::from_bits(signed(bytes) as u64)),
            8 => Value::Integer(0),
            9 => Value::Integer(1),
            n if n % 2 == 0 => Value::Blob(bytes.to_vec()),
            _ => Value::Text(bytes.to_vec()),
        });
    }
    (body == payload.len()).then_some(values)
}

/// A big-endian two's complement integer of 1 to 8 bytes.
fn signed(bytes: &[u8]) -> i64 {
    let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        -1i64
    } else {
        0
    };
    bytes.iter().fold(fill, |v, &b| (v << 8) | i64::from(b))
}

/// SQLite's variable-length integer: its value and length.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(9) {
        if i == 8 {
            return Some(((value << 8) | u64::from(b), 9));
        }
        value = (value << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

fn be16(bytes: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([bytes[at], bytes[at + 1]])
}

fn be32(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// A table or index of the schema.
#[derive(Debug)]
struct SchemaEntry {
    kind: String,
    name: String,
    root: u32,
    sql: String,
}

impl SchemaEntry {
    /// The entry a schema row describes (type, name, table, root page,
    /// SQL), when it has SQL to make it again (not an index SQLite makes
    /// for a constraint, which the table's SQL makes).
    fn of(row: Row) -> Option<SchemaEntry> {
        let text = |v: &Value| match v {
            Value::Text(t) => String::from_utf8(t.clone()).ok(),
            _ => None,
        };
        let [kind, name, _, root, sql] = row.values.as_slice() else {
            return None;
        };
        let root = match root {
            Value::Integer(r) => u32::try_from(*r).ok()?,
            _ => 0,
        };
        Some(SchemaEntry {
            kind: text(kind)?,
            name: text(name)?,
            root,
            sql: text(sql)?,
        })
    }

    fn is_table(&self) -> bool {
        self.kind == "table" && !self.name.starts_with("sqlite_")
    }

    fn is_index(&self) -> bool {
        self.kind == "index"
    }
}

/// Inserts one table's salvaged rows.
struct TableWriter<'db> {
    name: String,
    root: u32,
    /// Columns of the table.
    columns: usize,
    /// The column that is the row id (`INTEGER PRIMARY KEY`): the record
    /// holds NULL there.
    rowid_column: Option<usize>,
    /// Inserts a row unless one with its id was written: a row found
    /// twice (on a page of the tree and on a stale copy) is written once.
    insert: rusqlite::Statement<'db>,
    written: u64,
}

impl<'db> TableWriter<'db> {
    fn new(db: &'db Connection, entry: &SchemaEntry) -> Result<TableWriter<'db>> {
        let table = quote(&entry.name);
        let columns = columns_of(db, &table).map_err(database)?;
        let keys = columns.iter().filter(|c| c.is_key).count();
        let rowid_column = columns
            .iter()
            .position(|c| c.is_key && c.kind.eq_ignore_ascii_case("INTEGER"))
            .filter(|_| keys == 1);
        let names: Vec<String> = columns.iter().map(|c| quote(&c.name)).collect();
        let places: Vec<String> = (2..columns.len() + 2).map(|i| format!("?{i}")).collect();
        let insert = db
            .prepare(&format!(
                "INSERT OR IGNORE INTO {table}(rowid, {}) VALUES (?1, {})",
                names.join(", "),
                places.join(", ")
            ))
            .map_err(database)?;
        Ok(TableWriter {
            name: entry.name.clone(),
            root: entry.root,
            columns: columns.len(),
            rowid_column,
            insert,
            written: 0,
        })
    }

    /// Insert `row` (its missing trailing columns NULL, its row id column
    /// the row id), unless a row with its id was written.
    fn insert(&mut self, mut row: Row) -> Result<()> {
        if row.values.len() > self.columns {
            return Ok(());
        }
        row.values.resize(self.columns, Value::Null);
        if let Some(i) = self.rowid_column {
            if row.values[i] == Value::Null {
                row.values[i] = Value::Integer(row.rowid);
            }
        }
        let mut params: Vec<&dyn ToSql> = vec![&row.rowid];
        params.extend(row.values.iter().map(|v| v as &dyn ToSql));
        self.written += self.insert.execute(params.as_slice()).map_err(database)? as u64;
        Ok(())
    }
}

/// A column of a table, as `PRAGMA table_info` describes it.
struct Column {
    name: String,
    kind: String,
    /// Whether it is (part of) the primary key.
    is_key: bool,
}

/// The columns of table `table` (quoted).
fn columns_of(db: &Connection, table: &str) -> rusqlite::Result<Vec<Column>> {
    let mut info = db.prepare(&format!("PRAGMA table_info({table})"))?;
    let columns = info.query_map([], |r| {
        Ok(Column {
            name: r.get(1)?,
            kind: r.get(2)?,
            is_key: r.get::<_, i64>(5)? > 0,
        })
    })?;
    columns.collect()
}

/// `name` as an SQL identifier.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_as_sqlite_writes_them() {
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        assert_eq!(varint(&[0x81, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0xff; 9]), Some((u64::MAX, 9)));
        assert_eq!(varint(&[0x81]), None);
    }

    #[test]
    fn integers_are_signed_big_endian() {
        assert_eq!(signed(&[0xff]), -1);
        assert_eq!(signed(&[0x01, 0x00]), 256);
        assert_eq!(signed(&[0x80, 0, 0, 0, 0, 0, 0, 0]), i64::MIN);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Damaged anywhere, cut anywhere: nothing panics or reads past the
        /// file; cut only, every row kept is one of the file's.
        #[test]
        fn a_damaged_db3_salvages_without_panicking(
            flips in proptest::collection::vec((0usize..90_112, proptest::prelude::any::<u8>()), 0..40),
            keep in 4096usize..90_112,
        ) {
            let original = include_bytes!("../../../tests/fixtures/reference/db3/rec259_dc.db3");
            let mut bytes = original.to_vec();
            let damaged = !flips.is_empty();
            for (at, value) in flips {
                bytes[at % original.len()] = value;
            }
            bytes.truncate(keep);
            let dir = tempfile::tempdir().expect("tempdir");
            let (cut, out) = (dir.path().join("cut.db3"), dir.path().join("out.db3"));
            std::fs::write(&cut, &bytes).expect("write");
            if salvage_db3(&cut, &out).is_err() || damaged {
                return Ok(());
            }
            let rows = |path: &Path| -> Vec<(i64, Vec<u8>)> {
                let db = Connection::open(path).expect("open");
                let mut query = db.prepare("SELECT id, data FROM messages").expect("query");
                let rows = query.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).expect("rows");
                rows.collect::<rusqlite::Result<_>>().expect("read")
            };
            let whole = dir.path().join("whole.db3");
            std::fs::write(&whole, original).expect("write");
            let theirs = rows(&whole);
            for row in rows(&out) {
                proptest::prop_assert!(theirs.contains(&row), "row {}", row.0);
            }
        }
    }

    #[test]
    fn a_record_whose_body_is_short_is_no_record() {
        // Header of 3 bytes: an i8 and a 2-byte blob, body 3 bytes.
        assert_eq!(
            record(&[3, 1, 16, 7, 0xab, 0xcd]),
            Some(vec![Value::Integer(7), Value::Blob(vec![0xab, 0xcd])])
        );
        assert_eq!(record(&[3, 1, 16, 7, 0xab]), None);
    }
}
