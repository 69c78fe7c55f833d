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

/// Checks the tree under `root`; the first place a limit is passed gives AD014 there.
pub(crate) fn check(root: Node, file: u32, line_map: Option<&[u32]>) -> Option<Diagnostic> {
    // (node, nesting, blocks, depth) of the nodes still to visit.
    let mut stack = vec![(root, 0usize, 0usize, 0usize)];
    while let Some((n, nest, blocks, depth)) = stack.pop() {
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
        let kind = n.kind();
        let mut c = n.walk();
        if !c.goto_first_child() {
            continue;
        }
        // Pushed in order, popped last first: reversed afterwards so that the first
        // construct past a limit in source order is the one reported.
        let from = stack.len();
        loop {
            let child = c.node();
            let chain = (is_binary(kind) && c.field_name() == Some("left"))
                || kind == "else_clause"
                || (kind == "if_statement" && child.kind() == "else_clause");
            let step = usize::from(!chain);
            // A C block that is the body of a control statement is the same level.
            // Fortran's `do_statement` is the header of a `do_loop` (C's is a loop).
            let block = is_block(child.kind())
                && !chain
                && !(child.kind() == "do_statement" && kind == "do_loop")
                && !(child.kind() == "compound_statement"
                    && (is_block(kind) || kind == "else_clause"));
            stack.push((child, nest + step, blocks + usize::from(block), depth + 1));
            if !c.goto_next_sibling() {
                break;
            }
        }
        stack[from..].reverse();
    }
    None
}
