#!/usr/bin/env bash
# What a decision table decides at its edges: a few ages and cards through rules/passenger-types.yaml, the row that
# decides each, then one case explained condition by condition. (`--boundaries` instead of `--cases` tries every
# bound a row names, ±1, with every card.)
#
#   bash examples/05-rule-boundaries.sh
#
# prints: /^\d+\s+15\s+NONE\s+child-7-15\s/m
# prints: /^\d+\s+16\s+NONE\s+youth-16-19\s/m
# prints: /^\d+\s+17\s+SWE_STUDENT\s+student\s/m
# prints: /^decided by: row "student" at rules\/passenger-types\.yaml:\d+:\d+$/m
set -euo pipefail
cd "$(dirname "$0")/.."

cases=$(mktemp --suffix=.csv)
trap 'rm -f "$cases"' EXIT
printf 'age,typingCard\n6,NONE\n7,NONE\n15,NONE\n16,NONE\n17,SWE_STUDENT\n70,SWE_PENSIONER\n' > "$cases"
npx signalbox simulate passengerType --cases "$cases"
npx signalbox explain passengerType --facts '{"age":17,"cards":["SWE_STUDENT"]}'
