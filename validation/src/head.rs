//! What the driver must allocate and fill: the head's arguments, sized from their
//! declarations and from `-size name=value`. The description ([`Head`], in `args`) is made
//! by `describe` (arguments) and `globals` (COMMON members, module variables, C globals),
//! from an argument's elements (`shapes`) and the values the user writes (`sizes`).

mod args;
mod describe;
mod globals;
mod shapes;
mod sizes;

pub use args::{CommonBlock, FixedArg, GlobalHome, Head, HeadArg, RealArg};
pub use describe::{describe, describe_with};
pub use sizes::{int_expr, parse_number, parse_numbers, Sizes};
