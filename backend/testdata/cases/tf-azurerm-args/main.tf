terraform {
  backend "azurerm" {
    storage_account_name = "acct"
    container_name       = "tfstate"
    key                  = "app.tfstate"
  }
}
