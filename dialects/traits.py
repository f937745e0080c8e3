"""Traits of mini-iree's own: facts an op class declares about itself.

Dialect modules import them from here (this module imports only xDSL), and the
compiler reads them off the op classes instead of keeping lists of op names.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.traits import OpTrait


@dataclass(frozen=True)
class VerifierReadsOnlyItself(OpTrait):
    """The op's own ``verify_`` reads nothing but the op's signature.

    The contract the class's ``verify_`` (the one written in the class, run
    after IRDL's checks) must keep, for as long as the class carries this trait:

    - it reads only the op's operand types and result types (and so the number
      of values in each operand and result group), its attributes and
      properties (names and values), the number of its successors, and, for
      each of its regions, the number of blocks and the argument types of each
      block;
    - with ``reads_entry_terminators``, also the class and the operand types of
      the last op of each region's entry block (``linalg.yield`` in a
      ``linalg.matmul`` body), and nothing else of those ops;
    - its answer depends on those alone: it does not look at the ops defining
      its operands, the users of its results, its parent, the ops next to it,
      any other op nested in it, or a symbol it names, and reads no state
      outside the IR.

    Types and attributes are immutable, so an op of such a class is valid
    whenever another op of the class with equal operand and result types,
    attributes, properties and region signatures was: the incremental verifier
    (``compiler/ir/verifier``) runs ``verify_`` once per such signature and does
    not verify the op again when only the IR around it changes. A verifier that
    reads more than the above would stop being checked after such changes,
    silently: drop the trait (or the extra read) when the verifier changes.

    Subclasses inherit the trait (xDSL gathers ``traits_def`` from every base
    class): a subclass whose ``verify_`` reads more must not derive from a class
    carrying it.
    """

    reads_entry_terminators: bool = False
