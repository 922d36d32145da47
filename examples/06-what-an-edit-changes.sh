#!/usr/bin/env bash
# What an edit of rules/ changes, before it goes live: a copy of the rules with the agents' refund fee raised from
# 25 to 30 SEK (the row and its example), compared with rules/ by `signalbox diff`: the decision outcome that moves,
# and the prices it moves in a scenario. The exit status of `diff` is 1 when anything changed.
#
#   bash examples/06-what-an-edit-changes.sh
#
# prints: /^refundFee: row flexible-agent \{"refundPercent":100,"fee":2500\}  →  row flexible-agent \{"refundPercent":100,"fee":3000\}$/m
# prints: /^    \/refundOffers\/0\/refundFee: 2500 → 3000 SEK \(\+5\.00\)$/m
# prints: this edit changes 1 decision outcome
set -euo pipefail
cd "$(dirname "$0")/.."

edited=$(mktemp -d)
trap 'rm -rf "$edited"' EXIT
cp -r rules "$edited/"
sed -i 's/fee: 2500/fee: 3000/' "$edited/rules/refund-fees.yaml"
npx signalbox diff --rules rules --against "$edited/rules" --scenarios scenarios/aftersales/refund-terms.yaml || [ $? -eq 1 ]
