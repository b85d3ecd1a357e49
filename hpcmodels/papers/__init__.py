"""One module per paper: the published numbers (with their source) and the functions
that build each reproduced table or figure from the models."""
