"""The Streamlit explorer page (`gamegraph ui`): app.py is the script, the other modules its parts."""
