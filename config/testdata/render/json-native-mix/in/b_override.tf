resource "aws_instance" "json" {
  count = 3
  tags = {
    Name = "overridden"
  }
}
