#!/usr/bin/env bash
# The README's five-minute tour as one script: a token, offers, a booking, its confirmation and the ticket.
# Every block below is in the README verbatim (test/tour.test.ts), and `npm test` runs this file against a served
# instance (test/examples.test.ts), so the README's tour cannot drift from a server that works.
#
#   bash examples/01-tour.sh                              # starts its own throwaway server on a free port (or $PORT)
#   BASE=http://127.0.0.1:8080 bash examples/01-tour.sh   # against a server that is already running
#
# prints: /^\{"status":"ok","node":"v24\.\d+\.\d+"\}$/m
# prints: /^2 klass, standardplats: \d+ SEK$/m
# prints: /^booking (\w+), ticket \1-1$/m
set -euo pipefail
cd "$(dirname "$0")/.."

# 1. Serve (unless BASE names a running server), then wait until it answers: a token asked for earlier fails.
if [ -z "${BASE:-}" ]; then
  PORT=${PORT:-$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')}
  # On the Node that npm ci installed (README), as npm start runs it; node, not npx, so that the trap stops the server.
  PATH="$PWD/node_modules/.bin:$PATH" node bin/signalbox.js serve --store memory --port "$PORT" --quiet > /dev/null &
  SERVER=$!
  trap 'kill $SERVER 2>/dev/null || true' EXIT
  BASE=http://127.0.0.1:$PORT
fi
for _ in $(seq 150); do curl -sf $BASE/health > /dev/null && break; sleep 0.2; done
curl -sSf $BASE/health; echo                 # {"status":"ok","node":"v24.x.y"}: the Node it runs on

# 2. A token and the Requestor header
json() { node -pe "const body = JSON.parse(require('fs').readFileSync(0, 'utf8')); $1"; }   # one field of the JSON on stdin
TOKEN=$(curl -sS --fail-with-body -u demo-reseller:demo-reseller-secret -d grant_type=client_credentials \
  $BASE/oauth2/token | json body.access_token)
REQUESTOR=$(printf '{"salesApplication":"WEB_SE","salesUnitCode":"WEB"}' | base64 | tr -d '\n')
api() { curl -sS --fail-with-body -H "Authorization: Bearer $TOKEN" -H "Requestor: $REQUESTOR" -H 'Content-Type: application/json' "$@"; }

# 3. Offers
DAY=$(node -p 'new Date(Date.now() + 7 * 86400e3).toISOString().slice(0, 10)')   # a week from today
OFFER_REQUEST=$(cat <<JSON
{ "tripSpecifications": [{ "legs": [{ "externalRef": "leg-1", "timedLeg": {
    "start": { "stopPlaceRef": { "objectType": "StopPlaceRef", "stopPlaceRef": "urn:x_swe:stn:740000001" },
               "serviceDeparture": { "timetabledTime": "${DAY}T08:00:00+01:00" } },
    "end":   { "stopPlaceRef": { "objectType": "StopPlaceRef", "stopPlaceRef": "urn:x_swe:stn:740000002" },
               "serviceArrival": { "timetabledTime": "${DAY}T11:00:00+01:00" } },
    "service": { "publishedServiceName": "421", "vehicleNumbers": ["421"],
                 "productCategory": { "productCategoryRef": "urn:x_swe:sbc:ST" },
                 "carriers": [{ "ref": "urn:x_swe:carrier:74" }] } } }] }],
  "anonymousPassengerSpecifications": [{ "externalRef": "p1", "type": "PERSON", "age": 35 }],
  "offerSearchCriteria": { "currency": "SEK", "travelClasses": ["SECOND"], "flexibilities": ["FULL_FLEXIBLE"] } }
JSON
)
OFFERS=$(api -H 'Accept-Language: sv-SE' -d "$OFFER_REQUEST" $BASE/v3/offers)
echo "$OFFERS" | json 'body.offers.map((o) => o.products[0].summary + ": " + o.offerSummary.minimalPrice.amount / 100 + " SEK").join("\n")'
OFFER=$(echo "$OFFERS" | json body.offers[0].offerId)

# 4. Book, confirm, read the ticket
BOOKING=$(api -d '{"externalRef":"tour-1","offers":[{"offerId":"'$OFFER'","passengerRefs":["p1"]}],
  "passengerSpecifications":[{"externalRef":"p1","type":"PERSON","age":35,"detail":{"firstName":"Anna","lastName":"Svensson"}}],
  "purchaser":{"detail":{"firstName":"Anna","lastName":"Svensson","email":"anna.svensson@example.se","phoneNumber":"+46701234567"}}}' \
  $BASE/v3/booking | json body.booking.id)
api -X POST $BASE/v3/bookings/$BOOKING/fulfillment
FULFILLMENT=$(api $BASE/v3/bookings/$BOOKING | json body.booking.fulfillments[0].id)
api $BASE/v3/fulfillments/$FULFILLMENT | json '"booking " + body.fulfillment.bookingRef + ", ticket " + body.fulfillment.controlNumber'
