print("shipquote")
