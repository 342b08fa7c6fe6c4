#!/usr/bin/env python3
"""Writes Google Play import input for the import benchmark (Docs/import-googleplay.md, "Limits").

SUBSCRIPTIONS monthly subscriptions, each bought and renewed MONTHS - 1 times: per month one
Pub/Sub push (SUBSCRIPTION_PURCHASED or _RENEWED, with publishTime) and the subscriptionsv2
resource fetched after it (with fetchTime), so 2 * SUBSCRIPTIONS * MONTHS documents. Writes
OUT/all.jsonl (in the order produced) and OUT/month-NN.jsonl (the same documents, one file per
month), and OUT/catalog.json. Deterministic: no randomness, no clock.

usage: googleplay-import-data.py OUT [SUBSCRIPTIONS] [MONTHS]
"""
import base64
import datetime
import json
import os
import sys

out = sys.argv[1]
subscriptions = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
months = int(sys.argv[3]) if len(sys.argv) > 3 else 10
os.makedirs(out, exist_ok=True)
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def rfc3339(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def add_month(moment, count):
    month = moment.month - 1 + count
    return moment.replace(year=moment.year + month // 12, month=month % 12 + 1)


files = [[] for _ in range(months)]
for n in range(subscriptions):
    token = "bench%019d.AO-J1O%s" % (n, "x" * 96)
    order = "GPA.%04d-%04d-%04d-%05d" % (3300 + n % 97, n // 10000, n % 10000, n % 99991)
    bought = start + datetime.timedelta(minutes=7 * n % 40000, seconds=n % 60)
    for month in range(months):
        charged = add_month(bought, month)
        order_id = order if month == 0 else "%s..%d" % (order, month - 1)
        notification = {
            "version": "1.0", "packageName": "com.example.bench",
            "eventTimeMillis": str(int(charged.timestamp() * 1000)),
            "subscriptionNotification": {
                "version": "1.0", "notificationType": 4 if month == 0 else 2,
                "purchaseToken": token}}
        data = base64.b64encode(json.dumps(notification, separators=(",", ":")).encode()).decode()
        push = {"message": {"attributes": {}, "data": data, "messageId": "%d%03d" % (n, month),
                            "publishTime": rfc3339(charged + datetime.timedelta(seconds=1))},
                "subscription": "projects/bench/subscriptions/play-rtdn"}
        resource = {
            "packageName": "com.example.bench", "purchaseToken": token,
            "fetchTime": rfc3339(charged + datetime.timedelta(seconds=2)),
            "subscriptionPurchaseV2": {
                "startTime": rfc3339(bought), "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE",
                "latestOrderId": order_id,
                "externalAccountIdentifiers": {"obfuscatedExternalAccountId": "acct-%d" % n},
                "lineItems": [{
                    "productId": "pro", "expiryTime": rfc3339(add_month(charged, 1)),
                    "latestSuccessfulOrderId": order_id,
                    "autoRenewingPlan": {"autoRenewEnabled": True, "recurringPrice": {
                        "currencyCode": "EUR", "units": "4", "nanos": 990000000}},
                    "offerDetails": {"basePlanId": "monthly"}, "offerPhase": {"basePrice": {}}}]}}
        files[month].append(json.dumps(push, separators=(",", ":")))
        files[month].append(json.dumps(resource, separators=(",", ":")))

with open(os.path.join(out, "all.jsonl"), "w") as whole:
    for month, lines in enumerate(files):
        text = "\n".join(lines) + "\n"
        whole.write(text)
        with open(os.path.join(out, "month-%02d.jsonl" % month), "w") as part:
            part.write(text)
with open(os.path.join(out, "catalog.json"), "w") as catalog:
    json.dump({"products": {"pro:monthly": {
        "type": "auto_renewable", "group": "pro", "entitlements": ["pro"]}}}, catalog)
