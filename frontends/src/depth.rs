//! The nesting bound (AD014). Lowering, the visitors, the analyses, the differentiators and
//! the unparsers recurse on expression and statement trees; the CLI runs them on a thread
//! with a large stack, and this check, run on the syntax tree before lowering (iteratively),
//! keeps every input within what that stack was measured to cover.
//!
//! Three measures, each with its limit:
//! - *nesting*: levels of syntax, except the links of a chain (the left operand of a binary
//!   operator, the `if` of a C `else if`), so that a flat sum `a + b + c + …` or a long
//!   `else if` ladder, which parse as left- or right-leaning trees, nest one level;
//! - *blocks*: statements nested in statements (IF, DO, WHILE, SELECT, WHERE, FORALL, BLOCK,
//!   C compound statements), chains excepted;
//! - *depth*: every level, chains included: a sum of 100,000 terms is 100,000 deep.

use crate::ts::span;
use radtap_il::{Code, Diagnostic};
use tree_sitter::Node;

/// Deepest nesting of expressions and statements accepted (`((((x))))` is 4).
pub const MAX_NESTING: usize = 10_000;
/// Deepest nesting of statement blocks accepted.
pub const MAX_BLOCKS: usize = 1_000;
/// Deepest syntax tree accepted, chains included (a flat sum of N terms is N deep).
pub const MAX_DEPTH: usize = 250_000;

/// A binary operator node: its left operand continues a chain.
fn is_binary(kind: &str) -> bool {
    matches!(
        kind,
        "binary_expression"
            | "math_expression"
            | "logical_expression"
            | "relational_expression"
            | "concatenation_expression"
    )
}

/// A statement that holds statements.
fn is_block(kind: &str) -> bool {
    matches!(
        kind,
        "if_statement"
            | "do_loop"
            | "do_statement"
            | "while_statement"
            | "for_statement"
            | "switch_statement"
            | "compound_statement"
            | "select_case_statement"
            | "select_rank_statement"
            | "select_type_statement"
            | "where_statement"
            | "forall_statement"
            | "block_construct"
            | "associate_statement"
    )
}

/// Kind flags of a syntax node, looked up by kind id (see [`kinds`]).
const BINARY: u8 = 1;
const BLOCK: u8 = 2;
const ELSE_CLAUSE: u8 = 4;
const IF_STATEMENT: u8 = 8;
const DO_STATEMENT: u8 = 16;
const DO_LOOP: u8 = 32;
const COMPOUND: u8 = 64;

/// The flags of every node kind of the tree's language, indexed by kind id: the kind names
/// classified once per file rather than compared as strings at every node (`Node::kind`
/// validates the name as UTF-8 on each call).
fn kinds(root: Node) -> Vec<u8> {
    let lang = root.language();
    (0..lang.node_kind_count())
        .map(|id| {
            let Some(k) = u16::try_from(id)
                .ok()
                .and_then(|id| lang.node_kind_for_id(id))
            else {
                return 0;
            };
            let mut f = 0;
            for (yes, flag) in [
                (is_binary(k), BINARY),
                (is_block(k), BLOCK),
                (k == "else_clause", ELSE_CLAUSE),
                (k == "if_statement", IF_STATEMENT),
                (k == "do_statement", DO_STATEMENT),
                (k == "do_loop", DO_LOOP),
                (k == "compound_statement", COMPOUND),
            ] {
                if yes {
                    f |= flag;
                }
            }
            f
        })
        .collect()
}

/// Checks the tree under `root`; the first place a limit is passed gives AD014 there.
///
/// One cursor walks the tree in preorder (source order), so the first construct past a limit
/// is the one reported; the measures of the nodes on the path from the root are kept in a
/// stack beside it. (A cursor per node, as `Node::walk` makes, allocates for each node: it
/// was 15% of `-p`.)
pub(crate) fn check(root: Node, file: u32, line_map: Option<&[u32]>) -> Option<Diagnostic> {
    let flags = kinds(root);
    let flag = |n: Node| flags.get(usize::from(n.kind_id())).copied().unwrap_or(0);
    let left = root.language().field_id_for_name("left");
    let mut c = root.walk();
    // (kind flags, nesting, blocks, depth) of the ancestors of the cursor's node.
    let mut path: Vec<(u8, usize, usize, usize)> = Vec::new();
    let (mut nest, mut blocks, mut depth) = (0usize, 0usize, 0usize);
    loop {
        let n = c.node();
        let over = if nest > MAX_NESTING {
            Some(format!(
                "nesting deeper than {MAX_NESTING} levels of expressions and statements"
            ))
        } else if blocks > MAX_BLOCKS {
            Some(format!("statements nested deeper than {MAX_BLOCKS} blocks"))
        } else if depth > MAX_DEPTH {
            Some(format!(
                "an expression or statement chain deeper than {MAX_DEPTH} levels"
            ))
        } else {
            None
        };
        if let Some(what) = over {
            return Some(Diagnostic::error(
                Code::Nesting,
                span(n, file, line_map),
                format!("{what}: radtap cannot process it; split it into smaller parts"),
            ));
        }
        // The next node in preorder: the first child, else the next sibling of the node or
        // of its nearest ancestor that has one.
        if c.goto_first_child() {
            path.push((flag(n), nest, blocks, depth));
        } else {
            loop {
                if path.is_empty() {
                    return None;
                }
                if c.goto_next_sibling() {
                    break;
                }
                c.goto_parent();
                path.pop();
            }
        }
        let &(kind, pn, pb, pd) = path.last()?;
        let ck = flag(c.node());
        let chain = (kind & BINARY != 0 && left.is_some() && c.field_id() == left)
            || kind & ELSE_CLAUSE != 0
            || (kind & IF_STATEMENT != 0 && ck & ELSE_CLAUSE != 0);
        // A C block that is the body of a control statement is the same level.
        // Fortran's `do_statement` is the header of a `do_loop` (C's is a loop).
        let block = ck & BLOCK != 0
            && !chain
            && !(ck & DO_STATEMENT != 0 && kind & DO_LOOP != 0)
            && !(ck & COMPOUND != 0 && kind & (BLOCK | ELSE_CLAUSE) != 0);
        nest = pn + usize::from(!chain);
        blocks = pb + usize::from(block);
        depth = pd + 1;
    }
}
