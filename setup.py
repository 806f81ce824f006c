"""Build hook: install ``foldgraph-alias.pth`` beside the package.

The project's metadata lives in pyproject.toml; this file only adds the ``.pth``
file through which ``FOLDGRAPH_AS_LANGGRAPH=1`` serves ``langgraph`` from foldgraph
at interpreter start (see ``foldgraph.alias``). It is written into the wheel root,
so it lands in site-packages for a normal install and an editable one alike.
"""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH_NAME = "foldgraph-alias.pth"
# One line, run by the site module at every interpreter start: it costs an environment
# lookup unless the variable is set, and imports foldgraph only then.
PTH_LINE = (
    "import os; os.environ.get('FOLDGRAPH_AS_LANGGRAPH', '').strip() and "
    "__import__('foldgraph.alias').alias._install_from_environment()\n"
)


class BuildPyWithAliasPth(build_py):
    """``build_py`` that also writes the alias ``.pth`` into the wheel's root."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            # An editable wheel is assembled from the install command's target directory;
            # build_lib is only a scratch area there.
            target = self.get_finalized_command("install").install_lib
        else:
            target = self.build_lib
        os.makedirs(target, exist_ok=True)
        path = os.path.join(target, PTH_NAME)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(PTH_LINE)
        self._alias_pth = path

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs.append(os.path.join(self.build_lib, PTH_NAME))
        return outputs


setup(cmdclass={"build_py": BuildPyWithAliasPth})
