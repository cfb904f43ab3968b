"""Game files and their input/output: reading TOML game, position, log and record
files safely and telling them apart, their pydantic base, writing TOML, and writing
outputs atomically."""
