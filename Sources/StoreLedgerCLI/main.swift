print("storeledger: under construction")
