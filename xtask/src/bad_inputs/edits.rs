//! A case's `edits`: bytes overwritten, a file cut or extended, and a decision log's
//! frame checksums made right again after the edits (so that only the edited field is
//! wrong). Also the hexadecimal the `hex` files and the edits are written in.

use toml_edit::TableLike;

use replay::format::{CRC32C, MAGIC};

/// One change to a file of the scratch folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Edit {
    pub file: String,
    pub change: Change,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Change {
    /// Bytes written over the file at an offset (negative: from the end).
    Write { at: i64, bytes: Vec<u8> },
    /// The file cut to a length (negative: that many bytes off the end).
    Truncate(i64),
    /// Bytes added at the end.
    Append(Vec<u8>),
    /// Every checksummed frame of a decision log given its right CRC-32C.
    Crc,
}

/// Bytes from hexadecimal, with any whitespace between digits (`"41 44 4d"`).
pub(super) fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() % 2 == 1 {
        return Err(format!("hex {text:?} has an odd number of digits"));
    }
    digits
        .chunks(2)
        .map(|pair| {
            let byte: String = pair.iter().collect();
            u8::from_str_radix(&byte, 16)
                .map_err(|_| format!("hex {text:?}: {byte:?} is not a hexadecimal byte"))
        })
        .collect()
}

/// One table of a case's `edits`: `file` and exactly one of `at` with `hex`,
/// `truncate`, `append` or `crc = true`.
pub(super) fn parse_edit(table: &dyn TableLike) -> Result<Edit, String> {
    const KEYS: &[&str] = &["file", "at", "hex", "truncate", "append", "crc"];
    if let Some((key, _)) = table.iter().find(|(key, _)| !KEYS.contains(key)) {
        return Err(format!("edit: unknown key `{key}` (known: {})", KEYS.join(", ")));
    }
    let file = table.get("file").and_then(|i| i.as_str()).ok_or("edit: `file` (a string) is missing")?;
    let integer =
        |key: &str| table.get(key).map(|i| i.as_integer().ok_or(format!("edit: `{key}` is not an integer")));
    let hex = |key: &str| {
        table.get(key).map(|i| i.as_str().ok_or(format!("edit: `{key}` is not a string")).and_then(parse_hex))
    };
    let crc = table.get("crc").map(|i| i.as_bool().ok_or("edit: `crc` is not true or false".to_owned()));
    let change = match (integer("at").transpose()?, hex("hex").transpose()?, integer("truncate").transpose()?)
    {
        (Some(at), Some(bytes), None) if !bytes.is_empty() => Change::Write { at, bytes },
        (None, None, Some(length)) => Change::Truncate(length),
        (None, None, None) => match (hex("append").transpose()?, crc.transpose()?) {
            (Some(bytes), None) => Change::Append(bytes),
            (None, Some(true)) => Change::Crc,
            _ => {
                return Err(format!(
                    "edit of {file}: give `at` and `hex`, `truncate`, `append` or `crc = true`"
                ));
            }
        },
        _ => {
            return Err(format!("edit of {file}: give `at` and `hex`, `truncate`, `append` or `crc = true`"));
        }
    };
    if table.contains_key("append") && !matches!(change, Change::Append(_))
        || table.contains_key("crc") && change != Change::Crc
    {
        return Err(format!("edit of {file}: one change per edit"));
    }
    Ok(Edit { file: file.to_owned(), change })
}

/// Applies `change` to the bytes of a file; an offset or a length past the file is
/// an error in the case, not a damage to try.
pub(super) fn apply(bytes: &mut Vec<u8>, change: &Change) -> Result<(), String> {
    let from_end = |n: i64| -> Option<usize> {
        let len = i64::try_from(bytes.len()).ok()?;
        usize::try_from(if n < 0 { len + n } else { n }).ok().filter(|&at| at <= bytes.len())
    };
    match change {
        Change::Write { at, bytes: new } => {
            let start = from_end(*at).filter(|s| s + new.len() <= bytes.len());
            let start =
                start.ok_or(format!("{} bytes at {at} do not fit in {} bytes", new.len(), bytes.len()))?;
            bytes[start..start + new.len()].copy_from_slice(new);
        }
        Change::Truncate(length) => {
            let keep = from_end(*length).ok_or(format!("cannot cut {} bytes to {length}", bytes.len()))?;
            bytes.truncate(keep);
        }
        Change::Append(new) => bytes.extend_from_slice(new),
        Change::Crc => recompute_crcs(bytes)?,
    }
    Ok(())
}

/// Gives every frame of a decision log (docs/log-format.md: after the magic and the
/// version, `kind u8 | length u32 LE | payload | CRC-32C u32 LE`) the checksum of its
/// kind, length and payload, up to the first frame that does not fit in the file.
pub(super) fn recompute_crcs(bytes: &mut [u8]) -> Result<(), String> {
    if !bytes.starts_with(&MAGIC) {
        return Err("crc: the file does not start with a decision log's magic".to_owned());
    }
    let mut at = MAGIC.len() + 2;
    while let Some(length) = bytes.get(at + 1..at + 5) {
        let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]);
        let Some(end) = usize::try_from(length).ok().and_then(|l| (at + 5).checked_add(l)) else { break };
        if end + 4 > bytes.len() {
            break;
        }
        let crc = CRC32C.checksum(&bytes[at..end]);
        bytes[end..end + 4].copy_from_slice(&crc.to_le_bytes());
        at = end + 4;
    }
    Ok(())
}
