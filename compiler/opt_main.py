"""`mini-iree-opt`: mlir-opt / iree-opt conventions on top of xDSL's opt driver."""

import sys

from xdsl.xdsl_opt_main import xDSLOptMain


class MiniIREEOptMain(xDSLOptMain):
    version_format = "mini-iree-opt (mini-iree {mini_iree_version}, xdsl {xdsl_version})"

    def register_all_dialects(self):
        from mini_iree.dialects import get_all_dialects

        for name, factory in get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        from mini_iree.passes import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)


def main(argv: list[str] | None = None) -> int:
    MiniIREEOptMain(args=argv).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
