print("bench: under construction")
