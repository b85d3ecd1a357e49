import sys

from .cli import main

if __name__ == "__main__":  # a sweep's Dask workers import this module: they must not rerun it
    sys.exit(main())
