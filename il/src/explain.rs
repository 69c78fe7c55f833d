//! The long explanation of every diagnostic code, printed by `radtap -explain CODE` (as
//! `rustc --explain` does): what triggers it, a small example, and what to do.

use crate::diag::Code;

impl Code {
    /// What the code means, with a small example and what to do about it.
    pub fn explain(self) -> &'static str {
        match self {
            Code::Io => {
                "\
An input file could not be read: it does not exist, it is not readable, or it is not
UTF-8 text. Nothing is written.

Example:
    radtap -d -head f missing.f90
    radtap: error[AD001]: cannot read missing.f90: No such file or directory

What to do: check the path (relative to the current directory) and the encoding; convert
Latin-1 sources with `iconv -f latin1 -t utf-8`."
            }
            Code::UnknownExtension => {
                "\
The language of a file is taken from its extension, and this one names none radtap reads.

Example:
    radtap -d -head f model.txt

What to do: rename the file: .f .for .f77 .F (fixed form), .f90 .f95 .f03 .f08 .F90 (free
form; .F and .F90 go through cpp), .c .h (C)."
            }
            Code::Syntax => {
                "\
The parser could not recognise this part of the source. radtap reports every syntax error
it finds and writes nothing.

Example:
    y = x * * 2

What to do: check that the file compiles (gfortran -fsyntax-only, gcc -fsyntax-only). If it
does, the construct is one radtap's grammar does not know: please report it with the line."
            }
            Code::MissingToken => {
                "\
Something required is missing: a closing parenthesis, an END statement, a semicolon.

Example:
    do i = 1, n
      s = s + x(i)
    end subroutine f          ! the END DO is missing

What to do: add what the message names at the place shown."
            }
            Code::FixedForm => {
                "\
A fixed-form line breaks the column rules: a continuation mark (column 6) on the first line
of a statement, or a label field (columns 1-5) that is not numeric.

Example:
         X = 1
     &   + Y                   (continuation with no statement before it)

What to do: fix the columns, or give the file a free-form extension (.f90) if it is free
form."
            }
            Code::Preprocessor => {
                "\
A .F/.F90 file, or a C file with #if/#ifdef, is run through cpp first, and cpp failed.

Example:
    #include \"missing.h\"

What to do: give the include directories with -I DIR, or preprocess the file yourself."
            }
            Code::Nesting => {
                "\
radtap's passes recurse on expressions and statements; it accepts 10,000 levels of nested
expressions and statements, 1,000 nested blocks (IF, DO, WHILE, SELECT, C braces), and chains
(a flat sum a + b + c + ..., an else-if ladder) up to 250,000 long. The error points at the
first construct past the limit.

Example:
    y = ((((((((...(x)...))))))))      (more than 10,000 parentheses)

What to do: split the expression with temporaries, or the statement into procedures."
            }
            Code::Unsupported => {
                "\
A construct radtap cannot differentiate correctly (yet). It is refused at its line rather
than differentiated wrongly; the message says what it is and what to do instead.

Example (adjoint mode, C):
    static void muladd(double *a, const double *b) { *a = *a * *b + *b; }
    void f(double *x) { muladd(x, x); }     /* both arguments are the same memory */

What to do: follow the message (often: rewrite the statement in two, pass a copy, give
-size for memory of unknown extent); see docs/supported.md."
            }
            Code::Undeclared => {
                "\
A name is used but never declared: with IMPLICIT NONE in Fortran, or in C, where every name
needs a declaration (types from the user's headers included).

Example:
    implicit none
    y = alpha * x            ! alpha has no declaration

What to do: declare it, or give the file that declares it (a module, a header) as an input."
            }
            Code::Redeclared => {
                "\
A name is declared twice in the same scope.

Example:
    real(8) :: x
    integer :: x

What to do: remove or rename one of the declarations."
            }
            Code::EndNameMismatch => {
                "\
The name on an END statement differs from the unit's name.

Example:
    subroutine step(u)
    end subroutine stpe

What to do: make the two names agree."
            }
            Code::UnknownModule => {
                "\
A USE names a module that is not among the input files (a warning): what it declares is
unknown, so its variables are taken as passive and its procedures as external.

Example:
    use physics_constants, only: g

What to do: give the module's source file on the command line too."
            }
            Code::LabelUndefined => {
                "\
A GOTO, a DO or an arithmetic IF refers to a statement label that does not exist in the
unit.

Example:
          GOTO 30
          ...               (no statement labelled 30)

What to do: fix the label."
            }
            Code::UnknownHead => {
                "\
-head names a procedure that is not defined in the input files (the note lists the ones
that are), or the head string is malformed.

Example:
    radtap -d -head stepp heat.f90

What to do: spell the procedure as it is defined; for a module procedure, `mod.proc` or
`proc`; `-head \"f(y)/(x)\"` names dependents and independents."
            }
            Code::UnknownVar => {
                "\
-vars/-outvars (or the lists inside -head) name a variable that is not an argument, the
result, or a global (module, COMMON, C file-scope) variable of the head.

Example:
    radtap -d -head f -vars xx f.f90        (f's argument is x)

What to do: use the names of the head's own declarations; a function's result may be named
by the function's name."
            }
            Code::NoInfluence => {
                "\
An independent has no differentiable influence on any dependent, or a dependent depends on
no independent (a warning): its derivative is zero everywhere.

Example:
    subroutine f(x, n, y)     ! -vars \"x n\": n is an integer, y = 2*x
    
What to do: check -vars/-outvars; drop the variable, or look for an integer conversion
(int, nint, floor) or a comparison that cuts the dependence."
            }
            Code::EntryDerivative => {
                "\
Only the independents' derivatives are inputs of f_d, and only the dependents' adjoints are
inputs of f_b: radtap sets the others to zero on entry. For a C pointer argument it needs
the element count to do so; without it this warning names the pointer, and the caller must
then pass zeros there.

Example:
    void f(int n, const double *x, double *w, double *z)   /* -vars x -outvars z */
    {   for (int i = 0; i < n; i++) w[i] = w[i] * x[i];  ... }

What to do: give -size w=n (an expression over the head's integer arguments), or pass a
zeroed wd/wb."
            }
            Code::NoDerivative => {
                "\
An active value goes through a procedure or intrinsic that has no body among the inputs and
no derivative in radtap's table (an external routine, an unknown library function): its
derivative would be lost.

Example:
    y = my_special_function(x)     ! defined in a library radtap does not see

What to do: give the routine's source as an input, or write it in terms of known intrinsics."
            }
            Code::ActiveIo => {
                "\
An I/O statement reads into an active variable: the value read is a constant for the
derivatives, so its derivative is reset to zero there (a warning).

Example:
    read(10, *) x            ! x is active

What to do: nothing if that is intended; otherwise read into a passive variable first."
            }
            Code::Aliasing => {
                "\
Two actual arguments of a call may share memory that the callee writes (Tapenade's DF02): a
warning in tangent mode, where the derivative follows the primal, and an error in adjoint
mode, where the adjoint would update the shared adjoint twice.

Example:
    call inner(x(i), x(i))

What to do: pass a copy (`t = x(i); call inner(x(i), t)`) if that is what the code means."
            }
            Code::Directive => {
                "\
A misplaced or unknown $AD directive: directives stand on the line before the statement or
procedure they apply to.

Example:
    !$AD NOCHECKPOINT
    y = 2*x                  ! not a call

What to do: move the directive before a call or a procedure header, or fix its spelling."
            }
            Code::Internal => {
                "\
Internal error: radtap's own consistency checks failed. This is a bug in radtap, not in the
input.

What to do: please report it with the input files and the command line."
            }
        }
    }
}
