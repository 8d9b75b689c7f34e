"""One line per SARIF result: rule, file, line and the finding's headline.

Usage: python3 sarif-summary.py forest.sarif  (standard library only)
"""

import json
import sys

with open(sys.argv[1], encoding="utf-8") as handle:
    log = json.load(handle)
for run in log["runs"]:
    driver = run["tool"]["driver"]
    print(f"{driver['name']}: {len(run['results'])} result(s)")
    for result in run["results"]:
        where = result["locations"][0]["physicalLocation"]
        uri = where["artifactLocation"]["uri"]
        line = where.get("region", {}).get("startLine", "-")
        headline = result["message"]["text"].splitlines()[0].split("; ")[0]
        print(f"  {result['ruleId']} {result['level']} {uri}:{line}  {headline}")
