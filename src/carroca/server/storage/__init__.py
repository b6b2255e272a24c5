"""The database: schema and migrations, the writer thread with group commits, and the
rows of each area behind one `Store`."""
