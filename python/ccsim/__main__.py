import sys

from ccsim.cli import main

sys.exit(main())
