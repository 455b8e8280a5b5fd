// placeholder until the target has code
