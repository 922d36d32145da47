#!/usr/bin/env bash
# Aftersales with curl: a ticket refunded, one exchanged for a later train, one released by an agent. The blocks of
# docs/api-and-integration.md §9 are this script's own (test/recipes.test.ts), and `npm test` runs it against a served
# instance (test/examples.test.ts), so the recipes cannot drift from a server that works.
#
#   bash examples/07-refund-exchange-release.sh                              # its own throwaway server on a free port
#   BASE=http://127.0.0.1:8080 bash examples/07-refund-exchange-release.sh   # against a server that is already running
#
# prints: /^refund offer PROPOSED: \d+ SEK back, fee 0 SEK$/m
# prints: /^refunded: \d+ SEK, tickets REFUNDED,REFUNDED$/m
# prints: /^exchange offer: \d+ SEK for the 12:00, fee 0 SEK$/m
# prints: /^exchanged: tickets EXCHANGED,EXCHANGED,FULFILLED,FULFILLED$/m
# prints: /^released: tickets RELEASED,RELEASED, refundAmount none$/m
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BASE:-}" ]; then
  PORT=${PORT:-$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')}
  PATH="$PWD/node_modules/.bin:$PATH" node bin/signalbox.js serve --store memory --port "$PORT" --quiet > /dev/null &
  SERVER=$!
  trap 'kill $SERVER 2>/dev/null || true' EXIT
  BASE=http://127.0.0.1:$PORT
fi
for _ in $(seq 150); do curl -sf $BASE/health > /dev/null && break; sleep 0.2; done

# A token; the Requestor names the sales application: WEB_SE for the web shop, AGENT_SE for an agent (who may release)
json() { node -pe "const body = JSON.parse(require('fs').readFileSync(0, 'utf8')); $1"; }
TOKEN=$(curl -sS --fail-with-body -u demo-reseller:demo-reseller-secret -d grant_type=client_credentials \
  $BASE/oauth2/token | json body.access_token)
requestor() { printf '{"salesApplication":"%s","salesUnitCode":"WEB"}' "$1" | base64 | tr -d '\n'; }
REQUESTOR=$(requestor WEB_SE)
api() { curl -sS --fail-with-body -H "Authorization: Bearer $TOKEN" -H "Requestor: $REQUESTOR" -H 'Content-Type: application/json' "$@"; }

# A fully flexible ticket Stockholm C–Göteborg C a week from today, booked and confirmed: sell leaves the booking id
# in ID and the ticket's two fulfillment ids (the admission's and the seat's) in TICKETS.
DAY=$(node -p 'new Date(Date.now() + 7 * 86400e3).toISOString().slice(0, 10)')
trip() {
  cat <<JSON
{ "legs": [{ "externalRef": "leg-1", "timedLeg": {
    "start": { "stopPlaceRef": { "objectType": "StopPlaceRef", "stopPlaceRef": "urn:x_swe:stn:740000001" },
               "serviceDeparture": { "timetabledTime": "${DAY}T$1:00+01:00" } },
    "end":   { "stopPlaceRef": { "objectType": "StopPlaceRef", "stopPlaceRef": "urn:x_swe:stn:740000002" },
               "serviceArrival": { "timetabledTime": "${DAY}T$3:00+01:00" } },
    "service": { "publishedServiceName": "$2", "vehicleNumbers": ["$2"],
                 "productCategory": { "productCategoryRef": "urn:x_swe:sbc:ST" },
                 "carriers": [{ "ref": "urn:x_swe:carrier:74" }] } } }] }
JSON
}
PASSENGERS='"anonymousPassengerSpecifications": [{ "externalRef": "p1", "type": "PERSON", "age": 40 }],
  "offerSearchCriteria": { "currency": "SEK", "travelClasses": ["SECOND"], "flexibilities": ["FULL_FLEXIBLE"] }'
sell() {
  local offer
  offer=$(api -d "{ \"tripSpecifications\": [$(trip 08:00 421 11:00)], $PASSENGERS }" $BASE/v3/offers | json body.offers[0].offerId)
  ID=$(api -d '{"externalRef":"'$1'","offers":[{"offerId":"'$offer'","passengerRefs":["p1"]}],
    "passengerSpecifications":[{"externalRef":"p1","type":"PERSON","age":40,"detail":{"firstName":"Anna","lastName":"Svensson"}}],
    "purchaser":{"detail":{"firstName":"Anna","lastName":"Svensson","email":"anna.svensson@example.se","phoneNumber":"+46701234567"}}}' \
    $BASE/v3/booking | json body.booking.id)
  # The OSDM form of the confirmation answers with the fulfillments: the admission's and the seat's.
  TICKETS=$(api -X POST $BASE/v3/bookings/$ID/fulfillments | json 'body.fulfillments.map((f) => JSON.stringify(f.id)).join(",")')
}

# 1. Refund: an offer for whole tickets (admission and seat together), then confirm it (spec §3, §4.1 rule 6)
sell refund-1
REFUND=$(api -d '{"fulfillmentIds":['$TICKETS']}' $BASE/v3/bookings/$ID/refund-offers)
echo "$REFUND" | json '"refund offer " + body.refundOffers[0].status + ": " + body.refundOffers[0].refundableAmount.amount / 100 +
  " SEK back, fee " + body.refundOffers[0].refundFee.amount / 100 + " SEK"'
REFUND_ID=$(echo "$REFUND" | json body.refundOffers[0].id)
api -X PATCH -d '{"status":"CONFIRMED"}' $BASE/v3/bookings/$ID/refund-offers/$REFUND_ID | json body.refundOffer.status
api $BASE/v3/bookings/$ID | json '"refunded: " + body.booking.refundAmount.amount / 100 + " SEK, tickets " +
  body.booking.fulfillments.map((f) => f.status)'

# 2. Exchange for the 12:00: offers for the new trip (the passengers re-sent as before), an exchange operation
#    that pre-books one, and the booking's confirmation, which confirms the exchange (spec §3, §4.1 rule 7)
sell exchange-1
EXCHANGE=$(api -d "{ \"fulfillmentIds\": [$TICKETS], \"tripSpecifications\": [$(trip 12:00 429 15:00)], $PASSENGERS }" \
  $BASE/v3/bookings/$ID/exchange-offers)
echo "$EXCHANGE" | json '"exchange offer: " + body.exchangeOffers[0].exchangePrice.amount / 100 + " SEK for the 12:00, fee " +
  body.exchangeOffers[0].exchangeFee.amount / 100 + " SEK"'
EXCHANGE_OFFER=$(echo "$EXCHANGE" | json body.exchangeOffers[0].offerId)
api -d '{"exchangeOffers":[{"offerId":"'$EXCHANGE_OFFER'","passengerRefs":["p1"]}]}' \
  $BASE/v3/bookings/$ID/exchange-operations | json body.exchangeOperation.status      # PREBOOKED
api -X POST $BASE/v3/bookings/$ID/fulfillment                                         # 202, empty body
api $BASE/v3/bookings/$ID | json '"exchanged: tickets " + body.booking.fulfillments.map((f) => f.status)'

# 3. Release, by an agent (AGENT_SE), always with the overrule code EXTERNAL_COMPENSATION: no money moves (spec §4.1 rule 5)
REQUESTOR=$(requestor AGENT_SE)
sell release-1
RELEASE_ID=$(api -d '{"fulfillmentIds":['$TICKETS'],"overruleCode":"EXTERNAL_COMPENSATION"}' \
  $BASE/v3/bookings/$ID/release-offers | json body.releaseOffers[0].id)
api -X PATCH -d '{"status":"CONFIRMED"}' $BASE/v3/bookings/$ID/release-offers/$RELEASE_ID | json body.releaseOffer.status
api $BASE/v3/bookings/$ID | json '"released: tickets " + body.booking.fulfillments.map((f) => f.status) +
  ", refundAmount " + (body.booking.refundAmount ? body.booking.refundAmount.amount : "none")'
