from jurycal.cli import main

raise SystemExit(main())
