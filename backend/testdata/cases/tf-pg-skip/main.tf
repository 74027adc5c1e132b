terraform {
  backend "pg" {
    conn_str             = "postgres://user@127.0.0.1:1/db?sslmode=disable&connect_timeout=1"
    schema_name          = "app"
    skip_schema_creation = true
    skip_index_creation  = false
  }
}
